/**
 * How a change made anywhere in the app (an entry logged, saved or deleted) reaches every list of
 * entries in the query cache: in place when the list can say where the entry goes, or by asking
 * the server again (a text search, a list still loading, a list of four that lost one).
 */
import type { QueryClient, QueryKey } from '@tanstack/query-core';
import { queryKeys } from '../api/query-keys.ts';
import type { BeverageListFilter, BeverageListShape } from '../api/query-keys.ts';
import { applyChangeToPages } from './list-state.ts';
import type { ListChange, PagedList } from './list-state.ts';
import type { Beverage } from '../api/types.ts';
import { entriesOf } from './list-state.ts';

/** The filter and shape of a list's key, or null for another kind of beverages query. */
function listOf(key: QueryKey): { filter: BeverageListFilter; shape: BeverageListShape } | null {
  if (key[1] !== 'list') return null;
  return { filter: key[2] as BeverageListFilter, shape: key[3] as BeverageListShape };
}

/** Whether only the server can say if an entry belongs in a list of this filter. */
export function byServer(filter: BeverageListFilter): boolean {
  return Boolean(filter.q) || filter.window !== undefined || filter.placeId !== undefined;
}

export function applyChangeToCachedLists(
  client: QueryClient,
  change: ListChange,
  viewerId: number,
): void {
  const refetch = (queryKey: QueryKey) => void client.invalidateQueries({ queryKey, exact: true });
  for (const query of client.getQueryCache().findAll({ queryKey: queryKeys.beverages.all })) {
    const list = listOf(query.queryKey);
    const data = query.state.data as PagedList | undefined;
    if (!list || !data || byServer(list.filter) || query.state.fetchStatus === 'fetching') {
      // Searches, drinking windows and places are matched by the server (the window by its
      // year, the place by the entry's bottles); an answer on its way may predate the change.
      refetch(query.queryKey);
      continue;
    }
    const { fixed, pageSize } = list.shape;
    const result = applyChangeToPages(data, change, list.filter, {
      ...(fixed && { capacity: pageSize }),
      viewerId,
    });
    if (result.needsRefill && fixed) refetch(query.queryKey);
    else if (result.data !== data) client.setQueryData(query.queryKey, result.data);
  }
  // The cellar's figures and bottles count entries too.
  void client.invalidateQueries({ queryKey: queryKeys.cellar.all });
}

/** The entries of `ids` found in any list of the cache, each once. */
export function cachedEntries(client: QueryClient, ids: ReadonlySet<number>): Beverage[] {
  const found = new Map<number, Beverage>();
  for (const query of client.getQueryCache().findAll({ queryKey: queryKeys.beverages.all })) {
    if (!listOf(query.queryKey)) continue;
    for (const entry of entriesOf(query.state.data as PagedList | undefined)) {
      if (ids.has(entry.id) && !found.has(entry.id)) found.set(entry.id, entry);
    }
  }
  return [...found.values()];
}
