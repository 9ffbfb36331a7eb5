import { useQuery } from '@tanstack/react-query';
import type { InfiniteData } from '@tanstack/react-query';
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { fetchBeverage } from '../api/entries.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { BeveragePage } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import { BeverageCard } from '../vault/BeverageCard.tsx';

const CommentThread = lazyNamed(() => import('../conversation/CommentThread.tsx'), 'CommentThread');

export const ENTRY_NOT_FOUND = 'Entry not found.';

/**
 * The entry a cheer's or comment's alert leads to (`/?entry={id}`, on the dashboard): its card,
 * with its thread open over it on arrival. Closing the thread leaves focus on the card's
 * comments button. The entry is kept as a one-page list under the entries' key, so that what
 * changes an entry in the lists (its counts, conversation/counts.ts) changes it here too and any
 * other change asks the server again (vault/list-cache.ts).
 */
export function EntryFromAlert({ id }: { id: number }) {
  const titleId = useId();
  const cardRef = useRef<HTMLDivElement>(null);
  const query = useQuery<InfiniteData<BeveragePage>>({
    queryKey: [...queryKeys.beverages.all, 'one', id],
    queryFn: async ({ signal }) => ({
      pages: [{ beverages: [await fetchBeverage(id, signal)], nextCursor: null }],
      pageParams: [null],
    }),
  });
  const entry = query.data?.pages[0]?.beverages[0];
  const missing = query.error instanceof ApiError && query.error.status === 404;

  // Open on arrival, and again when another alert leads to another entry.
  const [threadOpen, setThreadOpen] = useState(true);
  const [shownId, setShownId] = useState(id);
  if (shownId !== id) {
    setShownId(id);
    setThreadOpen(true);
  }

  // Once the thread closes, focus goes back to the button that opens it again.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (threadOpen) {
      wasOpen.current = true;
    } else if (wasOpen.current) {
      wasOpen.current = false;
      cardRef.current
        ?.querySelector<HTMLButtonElement>(
          'button[aria-haspopup="dialog"][aria-label^="Comments:"]',
        )
        ?.focus();
    }
  }, [threadOpen]);

  return (
    <section className="panel alert-entry" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__title">
        From an alert
      </h2>
      {entry ? (
        <div ref={cardRef}>
          <ul className="entry-list">
            <li>
              <BeverageCard entry={entry} showType />
            </li>
          </ul>
          {threadOpen && (
            <Suspense fallback={<DialogLoading />}>
              <CommentThread
                target={{ kind: 'local', id: entry.id }}
                name={entry.name}
                commentCount={entry.commentCount}
                onClose={() => setThreadOpen(false)}
              />
            </Suspense>
          )}
        </div>
      ) : query.isError ? (
        <p className="empty-state" role="alert">
          {missing
            ? `${ENTRY_NOT_FOUND} It was deleted, or you may no longer see it.`
            : messageOf(query.error, ENTRY_NOT_FOUND)}
        </p>
      ) : (
        <p className="list-status" role="status">
          Loading…
        </p>
      )}
    </section>
  );
}
