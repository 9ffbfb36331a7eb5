import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { fetchBeverages } from '../api/entries.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { Beverage } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { useWaitingChanges } from '../offline/useWaiting.ts';
import { waitingEntries, withWaitingEdits, type WaitingEntry } from '../offline/waiting.ts';
import { useCurrentUser } from '../session/session.tsx';
import { byServer, cachedEntries } from './list-cache.ts';
import { applyChange, entriesOf, hasMoreOf } from './list-state.ts';
import type { ListFilter, ListPage } from './list-state.ts';

/** Entries per page on the archive, cellar and public profile pages. */
export const ARCHIVE_PAGE_SIZE = 50;

/** What a list says when its entries cannot be loaded. */
export const LOAD_FAILED = 'Unable to load vault entries.';

export interface BeverageList {
  entries: Beverage[];
  /** New entries of this list kept offline, newest first: shown before the vault's, as waiting. */
  waiting: WaitingEntry[];
  /** The entries shown with edits kept offline (their new values, marked as waiting). */
  waitingIds: ReadonlySet<number>;
  /** True until the first page has arrived. */
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  reload: () => void;
}

interface Options {
  /** How many entries a page holds. */
  pageSize: number;
  /**
   * A list that always shows at most `pageSize` entries (the dashboard's four cards): it never
   * grows with 'Load more', and is fetched again when it loses one.
   */
  fixed?: boolean;
}

/**
 * One list of entries from GET /beverages, newest first, paged with the server's cursor, kept in
 * the query cache. Changes made anywhere in the app reach it through the VaultProvider's
 * `publish` (list-cache.ts): in place, or, while a text search is active, by asking again.
 */
export function useBeverageList(
  filter: ListFilter,
  { pageSize, fixed = false }: Options,
): BeverageList {
  const query = useInfiniteQuery({
    queryKey: queryKeys.beverages.list(filter, { pageSize, fixed }),
    queryFn: ({ pageParam, signal }): Promise<ListPage> =>
      fetchBeverages({ ...filter, limit: pageSize, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: ListPage) => (fixed ? undefined : (last.nextCursor ?? undefined)),
  });
  const { data, error, isPending, isFetchingNextPage, fetchNextPage, refetch } = query;

  useEffect(() => {
    if (error) console.warn(LOAD_FAILED, messageOf(error, ''));
  }, [error]);

  const changes = useWaitingChanges();
  const waiting = useMemo(() => waitingEntries(changes, filter), [changes, filter]);
  const queryClient = useQueryClient();
  const viewerId = useCurrentUser().id;
  const loaded = useMemo(() => {
    const own = entriesOf(data);
    const kept = withWaitingEdits(own, changes);
    if (kept.waitingIds.size === 0 || byServer(filter)) return kept;
    // An entry edited offline shows in the lists it now belongs to (wherever the cache has it),
    // and leaves the others, as a saved one does.
    let state = { entries: own, hasMore: hasMoreOf(data) };
    const edited = withWaitingEdits(cachedEntries(queryClient, kept.waitingIds), changes);
    for (const entry of edited.entries) {
      state = applyChange(state, { kind: 'saved', entry }, filter, { viewerId });
    }
    return { entries: state.entries, waitingIds: kept.waitingIds };
  }, [data, changes, filter, queryClient, viewerId]);
  // A list of fixed size keeps its size: the waiting ones come first, as the newest.
  const entries = useMemo(
    () =>
      fixed ? loaded.entries.slice(0, Math.max(0, pageSize - waiting.length)) : loaded.entries,
    [fixed, loaded, pageSize, waiting.length],
  );
  return {
    entries,
    waiting,
    waitingIds: loaded.waitingIds,
    loading: isPending,
    error: error ? LOAD_FAILED : null,
    hasMore: hasMoreOf(data),
    loadingMore: isFetchingNextPage,
    loadMore: () => {
      if (fixed || isPending || isFetchingNextPage || !query.hasNextPage) return;
      void fetchNextPage({ cancelRefetch: false });
    },
    reload: () => void refetch(),
  };
}
