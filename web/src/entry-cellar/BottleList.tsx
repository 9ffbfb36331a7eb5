import { useState } from 'react';
import type { Bottle } from './api.ts';
import { bottleSummary, placeLabel, priceLabel } from './bottle-form.ts';
import { ConfirmDelete } from './ConfirmDelete.tsx';
import { WaitingMark } from '../offline/WaitingMark.tsx';

/** Where a line is: 'Basement › Rack A', or 'No place'. */
const whereOf = (bottle: Bottle) =>
  bottle.placePath.length > 0 ? placeLabel(bottle.placePath) : 'No place';

/** A line's name: '6 × 750 ml · 2017, Basement › Rack A'. */
const nameOf = (bottle: Bottle) => `${bottleSummary(bottle)}, ${whereOf(bottle)}`;

/**
 * An entry's bottle lines, each with Open a bottle, Change and Delete (after a question: the
 * bottles are taken off without being opened: sold, given, broken), then the lines added without
 * a connection, marked as waiting until they are sent.
 */
export function BottleList({
  bottles,
  waiting = [],
  onOpen,
  onChange,
  onDelete,
}: {
  bottles: Bottle[];
  /** Lines kept on the device until sent (offline/waiting.ts). */
  waiting?: Bottle[];
  onOpen: (bottle: Bottle) => void;
  onChange: (bottle: Bottle) => void;
  onDelete: (bottle: Bottle) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  if (bottles.length === 0 && waiting.length === 0) {
    return <p className="cellar-entry__empty">No bottles yet.</p>;
  }
  return (
    <ul className="cellar-entry__list">
      {bottles.map((bottle) => {
        const summary = bottleSummary(bottle);
        const where = whereOf(bottle);
        const name = nameOf(bottle);
        const bought = [
          bottle.purchasedOn && `Bought ${bottle.purchasedOn}`,
          bottle.price !== null &&
            bottle.currency !== null &&
            `${priceLabel(bottle.price, bottle.currency)} a bottle`,
        ].filter(Boolean);
        return (
          <li key={bottle.id} className="cellar-entry__item" aria-label={name}>
            <p className="cellar-entry__line">
              <strong>{summary}</strong> · {where}
            </p>
            {bought.length > 0 && <p className="cellar-entry__meta">{bought.join(' · ')}</p>}
            {bottle.note && <p className="cellar-entry__meta">{bottle.note}</p>}
            {confirming === bottle.id ? (
              <ConfirmDelete
                question={
                  <>
                    Take these {bottle.quantity === 1 ? 'bottle' : `${bottle.quantity} bottles`} off
                    without opening?
                  </>
                }
                busy={busy}
                onCancel={() => setConfirming(null)}
                onConfirm={async () => {
                  setBusy(true);
                  await onDelete(bottle);
                  setBusy(false);
                  setConfirming(null);
                }}
              />
            ) : (
              <div className="cellar-entry__actions">
                <button
                  type="button"
                  className="chip-button chip-button--accent"
                  aria-label={`Open a bottle: ${name}`}
                  onClick={() => onOpen(bottle)}
                >
                  Open a bottle
                </button>
                <button
                  type="button"
                  className="chip-button"
                  aria-label={`Change bottles: ${name}`}
                  onClick={() => onChange(bottle)}
                >
                  Change
                </button>
                <button
                  type="button"
                  className="chip-button"
                  aria-label={`Delete bottles: ${name}`}
                  onClick={() => setConfirming(bottle.id)}
                >
                  Delete
                </button>
              </div>
            )}
          </li>
        );
      })}
      {waiting.map((bottle) => (
        <li key={bottle.id} className="cellar-entry__item" aria-label={nameOf(bottle)}>
          <p className="cellar-entry__line">
            <strong>{bottleSummary(bottle)}</strong> · {whereOf(bottle)} <WaitingMark />
          </p>
        </li>
      ))}
    </ul>
  );
}
