import type { ReactNode } from 'react';
import { BeverageCard } from './BeverageCard.tsx';
import { SelectableEntry } from './SelectableEntry.tsx';
import type { EntrySelectionControl } from './useSelection.ts';
import type { BeverageList } from './useBeverageList.ts';
import { WaitingEntryCard } from './WaitingEntryCard.tsx';
import './entry-card.css';

/** The empty states. */
export const NO_ENTRIES = 'No entries recorded yet.';
export const noMatches = (query: string) => `No beverages matched "${query}".`;

interface EntryListProps {
  list: BeverageList;
  /** What an empty list says. */
  empty: ReactNode;
  /** 'stack' for the dashboard's narrow columns, 'grid' for full pages. */
  layout?: 'stack' | 'grid';
  showType?: boolean;
  readOnly?: boolean;
  headingLevel?: 3 | 4;
  /** Offer 'Load more' while the server has more. */
  pageable?: boolean;
  /** In 'Select' mode: a checkbox beside each entry that can be picked (useSelection.ts). */
  selection?: EntrySelectionControl | undefined;
}

/** A list of entry cards with its loading, error and empty states and 'Load more'. */
export function EntryList({
  list,
  empty,
  layout = 'grid',
  showType,
  readOnly,
  headingLevel,
  pageable = false,
  selection,
}: EntryListProps) {
  const waiting = list.waiting.map((entry) => (
    <li key={`waiting-${entry.seq}`}>
      <WaitingEntryCard entry={entry} showType={showType} headingLevel={headingLevel} />
    </li>
  ));
  if (list.loading && waiting.length === 0) {
    return (
      <p className="list-status" role="status">
        Loading…
      </p>
    );
  }
  if (list.error && list.entries.length === 0 && waiting.length === 0) {
    return (
      <div className="list-error">
        <p role="alert" className="form-error">
          {list.error}
        </p>
        <button type="button" className="button button--secondary" onClick={list.reload}>
          Try again
        </button>
      </div>
    );
  }
  if (list.entries.length === 0 && waiting.length === 0) {
    return <p className="empty-state">{empty}</p>;
  }
  return (
    <>
      <ul className={`entry-list entry-list--${layout}`}>
        {waiting}
        {list.entries.map((entry) => {
          const card = (
            <BeverageCard
              entry={entry}
              waiting={list.waitingIds.has(entry.id)}
              showType={showType}
              readOnly={readOnly}
              headingLevel={headingLevel}
            />
          );
          return (
            <li key={entry.id}>
              {selection?.canSelect(entry) ? (
                <SelectableEntry entry={entry} selection={selection}>
                  {card}
                </SelectableEntry>
              ) : (
                card
              )}
            </li>
          );
        })}
      </ul>
      {list.error && (
        <p role="alert" className="form-error">
          {list.error}
        </p>
      )}
      {pageable && list.hasMore && (
        <div className="load-more">
          <button
            type="button"
            className="button button--secondary"
            onClick={list.loadMore}
            disabled={list.loadingMore}
            aria-busy={list.loadingMore}
          >
            {list.loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </>
  );
}
