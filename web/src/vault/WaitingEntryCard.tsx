import { useId } from 'react';
import { BEVERAGE_KINDS } from '../beverages.ts';
import type { WaitingEntry } from '../offline/waiting.ts';
import { WaitingMark } from '../offline/WaitingMark.tsx';
import { StarRating } from './StarRating.tsx';
import './entry-card.css';

/**
 * A new entry logged without a connection, in its list until the vault has it: what was typed,
 * marked 'Waiting to sync', without the actions of an entry the vault keeps (it has no id yet).
 */
export function WaitingEntryCard({
  entry,
  showType = false,
  headingLevel = 3,
}: {
  entry: WaitingEntry;
  showType?: boolean | undefined;
  headingLevel?: 3 | 4 | undefined;
}) {
  const Heading = headingLevel === 4 ? 'h4' : 'h3';
  const nameId = useId();
  const kind = BEVERAGE_KINDS[entry.type];
  return (
    <article className="entry-card" aria-labelledby={nameId}>
      <div className="entry-card__body">
        <div className="entry-card__heading">
          <Heading id={nameId} className="entry-card__name">
            {entry.name}
          </Heading>
          <WaitingMark />
          {entry.inCellar && <span className="tag tag--cellar">In cellar</span>}
        </div>
        <p className="entry-card__meta">
          {showType && kind && <span className="entry-card__type">{kind.label} · </span>}
          <span>{entry.subtype}</span>
          {entry.makerName && kind && (
            <span className="entry-card__maker">
              {' · '}
              <span className="entry-card__maker-label">{kind.makerLabel}:</span> {entry.makerName}
            </span>
          )}
        </p>
        <StarRating rating={entry.rating} pending={entry.status === 'TO_TRY'} />
        {entry.notes && <p className="entry-card__notes">{entry.notes}</p>}
      </div>
    </article>
  );
}
