import { useState } from 'react';
import { StarRating } from '../vault/StarRating.tsx';
import type { Tasting } from './api.ts';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { dayLabel } from './days.ts';
import { WaitingMark } from '../offline/WaitingMark.tsx';

/**
 * An entry's tastings, newest first: day, stars, notes and photo. Its owner may use a tasting's
 * rating as the entry's own, change a tasting and delete one. Tastings logged without a
 * connection come first, marked as waiting until they are sent, without actions.
 */
export function TastingList({
  tastings,
  waiting = [],
  entryRating,
  owner,
  onUseRating,
  onChange,
  onDelete,
}: {
  tastings: Tasting[];
  /** Tastings kept on the device until sent (offline/waiting.ts), newest first. */
  waiting?: Tasting[];
  /** The entry's own rating (0 when to try): 'Use this rating' shows where it differs. */
  entryRating: number;
  owner: boolean;
  onUseRating: (tasting: Tasting) => Promise<void>;
  onChange: (tasting: Tasting) => void;
  onDelete: (tasting: Tasting) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  if (tastings.length === 0 && waiting.length === 0) {
    return <p className="cellar-entry__empty">No tastings yet.</p>;
  }
  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    await work();
    setBusy(false);
  };
  return (
    <ul className="cellar-entry__list">
      {[...waiting, ...tastings].map((tasting) => {
        const day = dayLabel(tasting.tastedOn);
        const name = `Tasting of ${day}`;
        const kept = tasting.id < 0;
        return (
          <li key={tasting.id} className="cellar-entry__item" aria-label={name}>
            <p className="cellar-entry__line">
              <strong>{day}</strong>
              {kept && (
                <>
                  {' '}
                  <WaitingMark />
                </>
              )}
              {tasting.opened && (
                <span className="cellar-entry__meta">
                  {' '}
                  · Opened a bottle{tasting.vintage !== null && ` (${tasting.vintage})`}
                </span>
              )}
            </p>
            {tasting.rating === null ? (
              <p className="cellar-entry__meta">Not rated</p>
            ) : (
              <StarRating rating={tasting.rating} />
            )}
            {tasting.notes && <p className="cellar-entry__notes">{tasting.notes}</p>}
            {tasting.photoPath && (
              <img
                className="cellar-entry__photo"
                src={`/${tasting.photoPath}`}
                alt={`Photo of the tasting of ${day}`}
                loading="lazy"
              />
            )}
            {owner &&
              !kept &&
              (confirming === tasting.id ? (
                <ConfirmDelete
                  question="Delete this tasting?"
                  busy={busy}
                  onCancel={() => setConfirming(null)}
                  onConfirm={() => act(() => onDelete(tasting)).then(() => setConfirming(null))}
                />
              ) : (
                <div className="cellar-entry__actions">
                  {tasting.rating !== null && tasting.rating !== entryRating && (
                    <button
                      type="button"
                      className="chip-button chip-button--accent"
                      aria-label={`Use this rating: ${tasting.rating} out of 5, ${name}`}
                      disabled={busy}
                      onClick={() => act(() => onUseRating(tasting))}
                    >
                      Use this rating
                    </button>
                  )}
                  <button
                    type="button"
                    className="chip-button"
                    aria-label={`Change ${name}`}
                    onClick={() => onChange(tasting)}
                  >
                    Change
                  </button>
                  <button
                    type="button"
                    className="chip-button"
                    aria-label={`Delete ${name}`}
                    onClick={() => setConfirming(tasting.id)}
                  >
                    Delete
                  </button>
                </div>
              ))}
          </li>
        );
      })}
    </ul>
  );
}
