import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { updateBeverage } from '../api/entries.ts';
import type { Beverage } from '../api/types.ts';
import { useNotes } from '../notes/notes.tsx';
import { KEPT_ON_DEVICE } from '../offline/send-or-queue.ts';
import { useWaitingChanges } from '../offline/useWaiting.ts';
import { waitingBottles, waitingTastings } from '../offline/waiting.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { bottleCountLabel } from '../vault/cellar-labels.ts';
import { useVault } from '../vault/VaultProvider.tsx';
import {
  addBottle,
  addTasting,
  changeBottle,
  changeTasting,
  deleteBottle,
  deleteTasting,
  entryCellarKeys,
  fetchBottles,
  fetchPlaces,
  fetchTastings,
  openBottle,
  type Bottle,
  type Tasting,
  type TastingInput,
} from './api.ts';
import { bottleSummary, placeLabel } from './bottle-form.ts';
import { BottleForm } from './BottleForm.tsx';
import { BottleList } from './BottleList.tsx';
import type { TastingDraft } from './TastingFields.tsx';
import { TastingForm } from './TastingForm.tsx';
import { TastingList } from './TastingList.tsx';
import './entry-cellar.css';

type View =
  | { kind: 'main' }
  | { kind: 'add-bottle' }
  | { kind: 'change-bottle'; bottle: Bottle }
  | { kind: 'open'; bottle: Bottle }
  | { kind: 'add-tasting' }
  | { kind: 'change-tasting'; tasting: Tasting };

const TITLES: Record<View['kind'], string> = {
  main: 'Bottles and tastings',
  'add-bottle': 'Add bottles',
  'change-bottle': 'Change bottles',
  open: 'Open a bottle',
  'add-tasting': 'Log a tasting',
  'change-tasting': 'Change tasting',
};

const inputOf = (draft: TastingDraft): TastingInput => ({
  body: { tastedOn: draft.tastedOn, rating: draft.rating, notes: draft.notes.trim() },
  photo: draft.photo,
  removePhoto: draft.removePhoto,
});

/** Whether a tasting form holds anything beyond its day (opening writes a tasting only then). */
const saysSomething = (draft: TastingDraft) =>
  draft.rating !== null || draft.notes.trim() !== '' || draft.photo !== null;

/**
 * An entry's bottles and tastings. Its owner sees the bottle lines (add, change, delete, Open a
 * bottle with its tasting) and writes tastings; whoever else may see the entry reads its
 * tastings. Every form opens in this one dialog, in place of the lists.
 */
export function EntryCellarDialog({ entry, onClose }: { entry: Beverage; onClose: () => void }) {
  const { publish, subscribe } = useVault();
  const { notifySuccess, notifyFailure } = useNotes();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState(entry);
  const [view, setView] = useState<View>({ kind: 'main' });
  const owner = entry.isOwner;
  const id = entry.id;

  useEffect(
    () =>
      subscribe((change) => {
        if (change.kind === 'deleted') {
          if (change.id === id) onClose();
        } else if (change.entry.id === id) setCurrent(change.entry);
      }),
    [subscribe, id, onClose],
  );

  // An entry known to hold none shows so at once, offline too (nothing to ask the vault for).
  const bottles = useQuery({
    queryKey: entryCellarKeys.bottles(id),
    queryFn: ({ signal }) => fetchBottles(id, signal),
    enabled: owner,
    placeholderData: entry.bottleCount === 0 ? [] : undefined,
  });
  const places = useQuery({
    queryKey: entryCellarKeys.places,
    queryFn: ({ signal }) => fetchPlaces(signal),
    enabled: owner,
  });
  const tastings = useQuery({
    queryKey: entryCellarKeys.tastings(id),
    queryFn: ({ signal }) => fetchTastings(id, signal),
    placeholderData: entry.tastingCount === 0 ? [] : undefined,
  });
  const lines = bottles.data ?? [];
  const total = lines.reduce((sum, bottle) => sum + bottle.quantity, 0);
  // Bottles and tastings kept on the device show where they will be, marked as waiting.
  const changes = useWaitingChanges();
  const keptLines = waitingBottles(changes, id, places.data);
  const kept = keptLines.reduce((sum, bottle) => sum + bottle.quantity, 0);

  const back = () => setView({ kind: 'main' });
  /** After a change of bottles: the lines, the cellar's figures and the entry's count. */
  const bottlesChanged = async (queued: boolean) => {
    if (queued) {
      notifySuccess(KEPT_ON_DEVICE);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: entryCellarKeys.cellar });
    const fresh = queryClient.getQueryData<Bottle[]>(entryCellarKeys.bottles(id)) ?? [];
    const bottleCount = fresh.reduce((sum, bottle) => sum + bottle.quantity, 0);
    setCurrent((latest) => {
      // Adding bottles puts the entry in the cellar; opening answers the entry itself.
      const saved = { ...latest, bottleCount, inCellar: latest.inCellar || bottleCount > 0 };
      publish({ kind: 'saved', entry: saved });
      return saved;
    });
  };
  const tastingsChanged = () =>
    queryClient.invalidateQueries({ queryKey: entryCellarKeys.tastings(id) });

  const applyRating = async (tasting: Tasting) => {
    const form = new FormData();
    form.set('rating', String(tasting.rating));
    // A rating is for what was tried.
    if (current.status === 'TO_TRY') form.set('status', 'TRIED');
    try {
      const saved = await updateBeverage(id, form);
      setCurrent(saved);
      publish({ kind: 'saved', entry: saved });
      notifySuccess(`Rating set to ${tasting.rating} out of 5`);
    } catch (caught) {
      notifyFailure(caught, 'The rating could not be set');
    }
  };

  let body;
  switch (view.kind) {
    case 'add-bottle':
    case 'change-bottle': {
      const bottle = view.kind === 'change-bottle' ? view.bottle : undefined;
      body = (
        <BottleForm
          entry={current}
          bottle={bottle}
          places={places.data ?? []}
          onCancel={back}
          onSave={async (json) => {
            const saved = bottle
              ? await changeBottle(id, bottle.id, json)
              : await addBottle(id, current.name, json);
            back();
            if (saved !== null) {
              notifySuccess(
                bottle ? 'Bottles changed' : `${bottleCountLabel(saved.quantity)} added`,
              );
            }
            await bottlesChanged(saved === null);
          }}
        />
      );
      break;
    }
    case 'open': {
      const { bottle } = view;
      const where = bottle.placePath.length > 0 ? ` · ${placeLabel(bottle.placePath)}` : '';
      body = (
        <TastingForm
          intro={
            <p className="cellar-entry__intro">
              One bottle of {bottleSummary(bottle)}
              {where} is taken out. How did it taste?
            </p>
          }
          lastBottleOf={total === 1 ? current.name : undefined}
          submitLabel="Open the bottle"
          onCancel={back}
          onSave={async (draft, keepInCellar) => {
            const opened = await openBottle(
              id,
              current.name,
              bottle.id,
              saysSomething(draft) ? inputOf(draft) : null,
              keepInCellar,
            );
            back();
            if (opened === null) {
              // Kept for later: the line shows one bottle fewer meanwhile, as it will be.
              queryClient.setQueryData<Bottle[]>(entryCellarKeys.bottles(id), (kept) =>
                kept?.flatMap((line) =>
                  line.id !== bottle.id
                    ? [line]
                    : line.quantity > 1
                      ? [{ ...line, quantity: line.quantity - 1 }]
                      : [],
                ),
              );
              notifySuccess(KEPT_ON_DEVICE);
              return;
            }
            notifySuccess('Bottle opened');
            setCurrent(opened.beverage);
            publish({ kind: 'saved', entry: opened.beverage });
            await Promise.all([
              queryClient.invalidateQueries({ queryKey: entryCellarKeys.cellar }),
              tastingsChanged(),
            ]);
          }}
        />
      );
      break;
    }
    case 'add-tasting':
    case 'change-tasting': {
      const tasting = view.kind === 'change-tasting' ? view.tasting : undefined;
      body = (
        <TastingForm
          key={tasting?.id ?? 'new'}
          tasting={tasting}
          submitLabel={tasting ? 'Save tasting' : 'Log tasting'}
          onCancel={back}
          onSave={async (draft) => {
            const saved = tasting
              ? await changeTasting(id, tasting.id, inputOf(draft))
              : await addTasting(id, current.name, inputOf(draft));
            back();
            if (saved === null) notifySuccess(KEPT_ON_DEVICE);
            else await tastingsChanged();
          }}
        />
      );
      break;
    }
    case 'main':
      body = (
        <>
          {owner && (
            <section className="cellar-entry__section" aria-labelledby={`bottles-${id}`}>
              <div className="cellar-entry__heading">
                <h3 id={`bottles-${id}`}>Bottles</h3>
                {bottles.isSuccess && (
                  <span className="cellar-entry__count">{bottleCountLabel(total + kept)}</span>
                )}
                <button
                  type="button"
                  className="chip-button chip-button--accent"
                  onClick={() => setView({ kind: 'add-bottle' })}
                >
                  Add bottles
                </button>
              </div>
              {bottles.isError ? (
                <p role="alert" className="form-error">
                  The bottles could not be loaded.
                </p>
              ) : bottles.isPending ? (
                <p className="cellar-entry__empty">Loading…</p>
              ) : (
                <BottleList
                  bottles={lines}
                  waiting={keptLines}
                  onOpen={(bottle) => setView({ kind: 'open', bottle })}
                  onChange={(bottle) => setView({ kind: 'change-bottle', bottle })}
                  onDelete={async (bottle) => {
                    try {
                      await deleteBottle(id, bottle.id);
                      await bottlesChanged(false);
                    } catch (caught) {
                      notifyFailure(caught, 'The bottles could not be deleted');
                    }
                  }}
                />
              )}
            </section>
          )}
          <section className="cellar-entry__section" aria-labelledby={`tastings-${id}`}>
            <div className="cellar-entry__heading">
              <h3 id={`tastings-${id}`}>Tastings</h3>
              {owner && (
                <button
                  type="button"
                  className="chip-button chip-button--accent"
                  onClick={() => setView({ kind: 'add-tasting' })}
                >
                  Log a tasting
                </button>
              )}
            </div>
            {tastings.isError ? (
              <p role="alert" className="form-error">
                The tastings could not be loaded.
              </p>
            ) : tastings.isPending ? (
              <p className="cellar-entry__empty">Loading…</p>
            ) : (
              <TastingList
                tastings={tastings.data}
                waiting={waitingTastings(changes, id, lines)}
                entryRating={current.status === 'TO_TRY' ? 0 : current.rating}
                owner={owner}
                onUseRating={applyRating}
                onChange={(tasting) => setView({ kind: 'change-tasting', tasting })}
                onDelete={async (tasting) => {
                  try {
                    await deleteTasting(id, tasting.id);
                    await tastingsChanged();
                  } catch (caught) {
                    notifyFailure(caught, 'The tasting could not be deleted');
                  }
                }}
              />
            )}
          </section>
        </>
      );
  }

  return (
    <Dialog
      title={view.kind === 'main' && !owner ? 'Tastings' : TITLES[view.kind]}
      description={current.name}
      onClose={view.kind === 'main' ? onClose : back}
      size="medium"
      closeOnBackdrop={view.kind === 'main'}
    >
      {body}
    </Dialog>
  );
}
