/**
 * What goes into the device copy (device-copy.ts): which answers are kept, and the whole
 * cellar fetched at once so every entry's bottles are on the device. No DOM here: it is
 * unit-tested in Node.
 */
import type { Query, QueryClient } from '@tanstack/query-core';
import { call } from '../api/call.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { Bottle } from '../../../contract/cellar.ts';
import { entryCellarKeys } from '../entry-cellar/api.ts';

/** Bottle lines per page when the whole cellar is fetched (the route's largest page). */
const CELLAR_PAGE = '500';

/** The lists kept: the user's own entries, their cellar, tastings. */
const KEPT_ROOTS = new Set<unknown>([
  queryKeys.beverages.all[0],
  queryKeys.cellar.all[0],
  entryCellarKeys.tastings(0)[0],
]);

/**
 * Whether a query's answer goes into the copy: an answer of a kept list, but not someone
 * else's entries (a public profile's list names a `userId`) nor a search's passing answer.
 */
export function isKept(query: Pick<Query, 'queryKey' | 'state'>): boolean {
  const [root, , filter] = query.queryKey;
  if (query.state.status !== 'success' || !KEPT_ROOTS.has(root)) return false;
  if (root !== queryKeys.beverages.all[0] || typeof filter !== 'object' || filter === null) {
    return true;
  }
  const { userId, q } = filter as { userId?: unknown; q?: unknown };
  return userId === undefined && !q;
}

/**
 * Keeps the answers of the kept lists in memory for the whole session (TanStack Query drops an
 * answer nobody has shown for 5 minutes): the cellar fetched at start must still be there when
 * the signal goes an hour later, and the copy written then must still hold it.
 */
export function keepInMemory(client: QueryClient): void {
  for (const root of KEPT_ROOTS) client.setQueryDefaults([root], { gcTime: Infinity });
}

/** Fetches every bottle line of the cellar and puts each entry's lines in the cache. */
export async function fetchWholeCellar(client: QueryClient): Promise<void> {
  const { places } = await call('GET /cellar/places');
  const byEntry = new Map<number, Bottle[]>();
  let cursor: string | undefined;
  do {
    const page = await call('GET /cellar/bottles', { query: { limit: CELLAR_PAGE, cursor } });
    for (const { entry, ...bottle } of page.bottles) {
      const lines = byEntry.get(entry.id) ?? [];
      lines.push(bottle);
      byEntry.set(entry.id, lines);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  client.setQueryData(entryCellarKeys.places, places);
  // An entry whose bottles are all gone since they were last asked for has none now.
  for (const query of client
    .getQueryCache()
    .findAll({ queryKey: entryCellarKeys.bottles(0).slice(0, 2) })) {
    const entryId = query.queryKey[2] as number;
    if (!byEntry.has(entryId)) client.setQueryData(entryCellarKeys.bottles(entryId), []);
  }
  for (const [entryId, lines] of byEntry) {
    lines.sort((a, b) => a.id - b.id);
    client.setQueryData(entryCellarKeys.bottles(entryId), lines);
  }
}
