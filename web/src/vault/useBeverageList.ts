import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchBeverages } from '../api/client.ts';
import type { Beverage } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { useCurrentUser } from '../session/session.tsx';
import { applyChange } from './list-state.ts';
import type { ListFilter } from './list-state.ts';
import { useVault } from './VaultProvider.tsx';

/** What a list says when its entries cannot be loaded. */
export const LOAD_FAILED = 'Unable to load vault entries.';

/** The server's largest page. */
const MAX_LIMIT = 200;

export interface BeverageList {
  entries: Beverage[];
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

interface State {
  entries: Beverage[];
  nextCursor: string | null;
  hasMore: boolean;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
}

const initial: State = {
  entries: [],
  nextCursor: null,
  hasMore: false,
  loading: true,
  loadingMore: false,
  error: null,
};

/**
 * One list of entries from GET /beverages, newest first, paged with the server's cursor.
 * It follows entries saved or deleted anywhere in the app: in place, or, while a text search
 * is active, by asking the server again.
 */
export function useBeverageList(
  filter: ListFilter,
  { pageSize, fixed = false }: Options,
): BeverageList {
  const { subscribe } = useVault();
  const viewerId = useCurrentUser().id;
  const [state, setState] = useState<State>(initial);
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });
  // Each fetch gets a number; an answer that is no longer the latest is dropped.
  const sequence = useRef(0);
  // The number of the first-page fetch on its way, if any (its answer may predate a change).
  const inFlight = useRef<number | null>(null);
  const key = JSON.stringify(filter);
  const filterRef = useRef(filter);
  useEffect(() => {
    filterRef.current = filter;
  });

  const fetchFirst = useCallback(
    async (keepLoaded: boolean) => {
      const seq = ++sequence.current;
      inFlight.current = seq;
      const loaded = stateRef.current.entries.length;
      const limit =
        fixed || !keepLoaded ? pageSize : Math.min(MAX_LIMIT, Math.max(pageSize, loaded));
      if (!keepLoaded) setState(initial);
      try {
        const page = await fetchBeverages({ ...filterRef.current, limit });
        if (seq !== sequence.current) return;
        setState({
          entries: page.beverages,
          nextCursor: page.nextCursor,
          hasMore: page.nextCursor !== null,
          loading: false,
          loadingMore: false,
          error: null,
        });
      } catch (caught) {
        if (seq !== sequence.current) return;
        console.warn(LOAD_FAILED, messageOf(caught, ''));
        setState((current) => ({
          ...current,
          loading: false,
          loadingMore: false,
          error: LOAD_FAILED,
        }));
      } finally {
        if (inFlight.current === seq) inFlight.current = null;
      }
    },
    [fixed, pageSize],
  );

  // The first page, again whenever the filter changes.
  useEffect(() => {
    const counter = sequence;
    void fetchFirst(false);
    // Unmounted or refiltered: whatever is still on its way is of no use.
    return () => {
      counter.current++;
    };
  }, [key, fetchFirst]);

  // Changes made anywhere: in place, or from the server while searching or still loading.
  useEffect(
    () =>
      subscribe((change) => {
        const current = stateRef.current;
        const fetching = current.loading || current.loadingMore || inFlight.current !== null;
        if (filterRef.current.q || fetching) {
          void fetchFirst(true);
          return;
        }
        const result = applyChange(current, change, filterRef.current, {
          ...(fixed && { capacity: pageSize }),
          viewerId,
        });
        if (result.needsRefill && fixed) {
          void fetchFirst(true);
          return;
        }
        const next = { ...current, entries: result.entries, hasMore: result.hasMore };
        stateRef.current = next;
        setState(next);
      }),
    [subscribe, fetchFirst, fixed, pageSize, viewerId],
  );

  const loadMore = useCallback(async () => {
    const current = stateRef.current;
    if (fixed || current.loading || current.loadingMore || !current.nextCursor) return;
    const seq = ++sequence.current;
    setState((s) => ({ ...s, loadingMore: true, error: null }));
    try {
      const page = await fetchBeverages({
        ...filterRef.current,
        limit: pageSize,
        cursor: current.nextCursor,
      });
      if (seq !== sequence.current) return;
      setState((s) => {
        const known = new Set(s.entries.map((entry) => entry.id));
        return {
          ...s,
          entries: [...s.entries, ...page.beverages.filter((entry) => !known.has(entry.id))],
          nextCursor: page.nextCursor,
          hasMore: page.nextCursor !== null,
          loadingMore: false,
        };
      });
    } catch (caught) {
      if (seq !== sequence.current) return;
      console.warn(LOAD_FAILED, messageOf(caught, ''));
      setState((s) => ({ ...s, loadingMore: false, error: LOAD_FAILED }));
    }
  }, [fixed, pageSize]);

  const reload = useCallback(() => void fetchFirst(true), [fetchFirst]);

  return {
    entries: state.entries,
    loading: state.loading,
    error: state.error,
    hasMore: state.hasMore,
    loadingMore: state.loadingMore,
    loadMore: () => void loadMore(),
    reload,
  };
}
