import { useQuery } from '@tanstack/react-query';
import type { InfiniteData } from '@tanstack/react-query';
import { Suspense, useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { ApiError } from '../api/client.ts';
import { fetchBeverage } from '../api/entries.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { BeveragePage } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';
import { messageOf } from '../notes/notes.tsx';
import { ArrowLeftIcon } from '../ui/icons.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import { BeverageCard } from '../vault/BeverageCard.tsx';
import { Screen } from './Screen.tsx';
import './archive.css';
import '../vault/entry-card.css';

const CommentThread = lazyNamed(() => import('../conversation/CommentThread.tsx'), 'CommentThread');

export const ENTRY_NOT_FOUND = 'Entry not found.';

/** The entry's id from the address, or null when it is not a positive whole number. */
function idOf(text: string): number | null {
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : null;
}

/**
 * /entries/{id}: one entry's card, the place a cheer or comment alert leads to;
 * /entries/{id}/comments opens its thread over it, and closing the thread leaves the address
 * at /entries/{id} with focus on the card's comments button. The entry is kept as a one-page
 * list so that what changes an entry in the lists (its counts, conversation/counts.ts) changes
 * it here too; any other change asks the server again (vault/list-cache.ts).
 */
export function EntryScreen({ id: rawId, comments }: { id: string; comments: boolean }) {
  const id = idOf(rawId);
  const [, navigate] = useLocation();
  const cardRef = useRef<HTMLDivElement>(null);
  const query = useQuery<InfiniteData<BeveragePage>>({
    queryKey: queryKeys.beverages.one(id ?? 0),
    queryFn: async ({ signal }) => ({
      pages: [{ beverages: [await fetchBeverage(id!, signal)], nextCursor: null }],
      pageParams: [null],
    }),
    enabled: id !== null,
  });
  const entry = query.data?.pages[0]?.beverages[0];
  const missing = id === null || (query.error instanceof ApiError && query.error.status === 404);

  // Once the thread closes, focus goes back to the button that opens it again: in the next
  // task, after the layout has focused the heading, as it does whenever the address changes.
  const threadWasOpen = useRef(false);
  useEffect(() => {
    if (comments) {
      threadWasOpen.current = true;
      return;
    }
    if (!threadWasOpen.current) return;
    threadWasOpen.current = false;
    const timer = setTimeout(() =>
      cardRef.current
        ?.querySelector<HTMLButtonElement>(
          'button[aria-haspopup="dialog"][aria-label^="Comments:"]',
        )
        ?.focus(),
    );
    return () => clearTimeout(timer);
  }, [comments]);

  const kind = entry ? BEVERAGE_KINDS[entry.type] : null;
  return (
    <Screen
      title="Entry"
      before={
        <Link href={kind?.path ?? '/'} className="back-link">
          <ArrowLeftIcon />
          {kind ? `Back to ${kind.archiveTitle}` : 'Back to dashboard'}
        </Link>
      }
    >
      {entry ? (
        <div ref={cardRef}>
          <ul className="entry-list">
            <li>
              <BeverageCard entry={entry} showType headingLevel={2} />
            </li>
          </ul>
          {comments && (
            <Suspense fallback={<DialogLoading />}>
              <CommentThread
                target={{ kind: 'local', id: entry.id }}
                name={entry.name}
                commentCount={entry.commentCount}
                onClose={() => navigate(`/entries/${entry.id}`, { replace: true })}
              />
            </Suspense>
          )}
        </div>
      ) : missing || query.isError ? (
        <div className="empty-state" role="alert">
          <p>{missing ? ENTRY_NOT_FOUND : messageOf(query.error, ENTRY_NOT_FOUND)}</p>
          {missing && <p>It was deleted, or it is no longer shared with you.</p>}
        </div>
      ) : (
        <p className="list-status" role="status">
          Loading…
        </p>
      )}
    </Screen>
  );
}
