import { Suspense, useId, useState } from 'react';
import type { MouseEvent } from 'react';
import type { Beverage } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { ConversationBar } from '../conversation/ConversationBar.tsx';
import { CheckIcon, ClockIcon, EditIcon, LockIcon } from '../ui/icons.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import { bottleCountLabel, drinkWindowLabel } from './cellar-labels.ts';
import { StarRating } from './StarRating.tsx';
import { EntryThumb } from './EntryThumb.tsx';
import { useVault } from './VaultProvider.tsx';
import './entry-card.css';
import { VISIBILITY_LABELS } from './visibility.ts';

// An entry's bottles and tastings are fetched when someone first opens them.
const EntryCellarDialog = lazyNamed(
  () => import('../entry-cellar/EntryCellarDialog.tsx'),
  'EntryCellarDialog',
);

interface BeverageCardProps {
  entry: Beverage;
  /** Say the type on the card (where types are mixed: cellar, profiles). */
  showType?: boolean;
  /** Never offer editing (entries in feeds and on other people's profiles). */
  readOnly?: boolean;
  /** The level of the entry's name heading under the list's own heading. */
  headingLevel?: 3 | 4;
}

/**
 * One entry. The owner or an admin can click it (or its Edit button) to edit it, and move it
 * between tried and to-try with one button; everyone else sees 'View only'. Everyone who sees it
 * can cheer it, open its comments and read its tastings; its owner also sees how many bottles
 * they keep, and keeps its bottles and tastings from the same button.
 */
export function BeverageCard({
  entry,
  showType = false,
  readOnly = false,
  headingLevel = 3,
}: BeverageCardProps) {
  const Heading = headingLevel === 4 ? 'h4' : 'h3';
  const { canEdit, openEditor, changeStatus } = useVault();
  const [busy, setBusy] = useState(false);
  const [cellarOpen, setCellarOpen] = useState(false);
  const nameId = useId();
  const kind = BEVERAGE_KINDS[entry.type];
  const editable = !readOnly && canEdit(entry);
  const toTry = entry.status === 'TO_TRY';
  const drinkWindow = drinkWindowLabel(entry.drinkFrom, entry.drinkUntil);
  // Owner-only: how many bottles of it the owner keeps.
  const bottles = entry.isOwner ? (entry.bottleCount ?? 0) : 0;

  // A click anywhere on the card edits it; its own buttons and links do their own thing.
  const onCardClick = (event: MouseEvent<HTMLElement>) => {
    if (!editable) return;
    // A click in a dialog opened from the card (its portal is outside the card) is not on it.
    if (!event.currentTarget.contains(event.target as Node)) return;
    if ((event.target as HTMLElement).closest('button, a, input, label')) return;
    if (window.getSelection()?.toString()) return;
    openEditor(entry);
  };

  const toggleStatus = async () => {
    setBusy(true);
    await changeStatus(entry, toTry ? 'TRIED' : 'TO_TRY');
    setBusy(false);
  };

  return (
    <article
      className={`entry-card${editable ? ' entry-card--editable' : ''}`}
      aria-labelledby={nameId}
      onClick={onCardClick}
    >
      <EntryThumb entry={entry} />

      <div className="entry-card__body">
        <div className="entry-card__heading">
          <Heading id={nameId} className="entry-card__name">
            {entry.name}
          </Heading>
          {entry.inCellar && <span className="tag tag--cellar">In cellar</span>}
          {bottles > 0 && <span className="tag tag--muted">{bottleCountLabel(bottles)}</span>}
          {entry.isOwner && entry.visibility !== 'MEMBERS' && (
            <span className="tag">{VISIBILITY_LABELS[entry.visibility]}</span>
          )}
        </div>
        <p className="entry-card__meta">
          {showType && <span className="entry-card__type">{kind.label} · </span>}
          <span>{entry.subtype}</span>
          {entry.makerName && (
            <span className="entry-card__maker">
              {' · '}
              <span className="entry-card__maker-label">{kind.makerLabel}:</span> {entry.makerName}
            </span>
          )}
        </p>
        <StarRating rating={entry.rating} pending={toTry} />
        {drinkWindow && <p className="entry-card__window">{drinkWindow}</p>}
        {entry.notes && <p className="entry-card__notes">{entry.notes}</p>}
        {!entry.isOwner && entry.ownerName && (
          <p className="entry-card__owner">Logged by {entry.ownerName}</p>
        )}
        <div className="entry-card__actions">
          {editable ? (
            <>
              <button
                type="button"
                className="chip-button"
                onClick={() => openEditor(entry)}
                aria-label={`Edit ${entry.name}`}
              >
                <EditIcon />
                Edit
              </button>
              <button
                type="button"
                className="chip-button chip-button--accent"
                onClick={toggleStatus}
                disabled={busy}
              >
                {toTry ? <CheckIcon /> : <ClockIcon />}
                {toTry ? 'Mark as tried' : 'Move to to-try'}
              </button>
            </>
          ) : (
            <span className="tag tag--muted">
              <LockIcon />
              View only
            </span>
          )}
          {/* Anyone else is offered the tastings only when there are some. */}
          {(entry.isOwner || entry.tastingCount > 0) && (
            <button
              type="button"
              className="chip-button"
              aria-haspopup="dialog"
              aria-label={`${entry.isOwner ? 'Bottles and tastings' : 'Tastings'} of ${entry.name}`}
              onClick={() => setCellarOpen(true)}
              onPointerEnter={EntryCellarDialog.preload}
              onFocus={EntryCellarDialog.preload}
            >
              {entry.isOwner ? 'Bottles and tastings' : 'Tastings'}
            </button>
          )}
          <ConversationBar
            target={{ kind: 'local', id: entry.id }}
            name={entry.name}
            counts={entry}
          />
        </div>
        {cellarOpen && (
          <Suspense fallback={<DialogLoading />}>
            <EntryCellarDialog entry={entry} onClose={() => setCellarOpen(false)} />
          </Suspense>
        )}
      </div>
    </article>
  );
}
