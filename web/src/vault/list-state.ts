/**
 * How a list of entries on screen follows a change made elsewhere (pure functions, unit-tested).
 * A list is defined by its filter; an entry that was saved goes into every list it now matches
 * (at its place in newest-first order) and out of every list it no longer matches.
 */
import type { BeverageListFilter } from '../api/query-keys.ts';
import type { Beverage, BeveragePage } from '../api/types.ts';

/** What a list on screen shows: GET /beverages's filters, without the paging. */
export type ListFilter = BeverageListFilter;

export interface ListState {
  entries: Beverage[];
  /** The server has more after the last loaded entry. */
  hasMore: boolean;
}

/**
 * Whether an entry belongs in a list (the text search is left to the server). A list without
 * userId is the viewer's own vault: their entries and those shared with them.
 */
export function matchesFilter(entry: Beverage, filter: ListFilter, viewerId?: number): boolean {
  if (filter.userId !== undefined) {
    if (entry.userId !== filter.userId) return false;
  } else if (viewerId !== undefined && entry.userId !== viewerId && !entry.sharedWithCurrentUser) {
    return false;
  }
  if (filter.type !== undefined && entry.type !== filter.type) return false;
  if (filter.status !== undefined && entry.status !== filter.status) return false;
  if (filter.cellar !== undefined && entry.inCellar !== filter.cellar) return false;
  return true;
}

/** Newest first, as the server orders them: by createdAt, then by id. */
export function newestFirst(a: Beverage, b: Beverage): number {
  const byTime = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return byTime !== 0 ? byTime : b.id - a.id;
}

export type ListChange = { kind: 'saved'; entry: Beverage } | { kind: 'deleted'; id: number };

export interface ApplyResult extends ListState {
  /**
   * The list lost an entry while the server holds more: a list of fixed size (the dashboard's
   * four cards) should be fetched again to fill the gap.
   */
  needsRefill: boolean;
}

/**
 * Applies a change to a list.
 * - A saved entry that matches replaces its old copy in place, or is inserted where it sorts;
 *   when the list is not complete (hasMore) it is inserted only if it sorts before the last
 *   loaded entry (otherwise it belongs to a page not loaded yet).
 * - A saved entry that no longer matches, or a deleted one, leaves the list.
 * - `capacity` keeps a list at a fixed size (what overflows is dropped and counted as more);
 *   `viewerId` is who the list belongs to when its filter names nobody.
 */
export function applyChange(
  state: ListState,
  change: ListChange,
  filter: ListFilter,
  options: { capacity?: number; viewerId?: number } = {},
): ApplyResult {
  const { capacity, viewerId } = options;
  const id = change.kind === 'saved' ? change.entry.id : change.id;
  const index = state.entries.findIndex((entry) => entry.id === id);
  const without = index === -1 ? state.entries : state.entries.filter((entry) => entry.id !== id);

  if (change.kind === 'deleted' || !matchesFilter(change.entry, filter, viewerId)) {
    if (index === -1) return { ...state, needsRefill: false };
    return { entries: without, hasMore: state.hasMore, needsRefill: state.hasMore };
  }

  const entry = change.entry;
  const last = without.at(-1);
  const belongs =
    index !== -1 || !state.hasMore || (last !== undefined && newestFirst(entry, last) < 0);
  if (!belongs) return { ...state, needsRefill: false };

  let entries = [...without, entry].sort(newestFirst);
  let hasMore = state.hasMore;
  if (capacity !== undefined && entries.length > capacity) {
    entries = entries.slice(0, capacity);
    hasMore = true;
  }
  return { entries, hasMore, needsRefill: false };
}

/**
 * One page of a list as the query cache keeps it: GET /beverages's page, plus `truncated` when a
 * list of fixed size dropped an entry to stay at its size (the server then holds more even if
 * the page said it was the last).
 */
export interface ListPage extends BeveragePage {
  truncated?: boolean;
}

/** A paged list as useInfiniteQuery keeps it: the pages and the cursor each was fetched with. */
export interface PagedList {
  pages: ListPage[];
  pageParams: unknown[];
}

/** Every entry of a paged list, in order, each once (a page may repeat an entry seen before). */
export function entriesOf(data: PagedList | undefined): Beverage[] {
  if (!data) return [];
  const seen = new Set<number>();
  const entries: Beverage[] = [];
  for (const page of data.pages) {
    for (const entry of page.beverages) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      entries.push(entry);
    }
  }
  return entries;
}

/** Whether the server holds more than a paged list shows. */
export function hasMoreOf(data: PagedList | undefined): boolean {
  const last = data?.pages.at(-1);
  return last !== undefined && (last.nextCursor !== null || last.truncated === true);
}

/**
 * applyChange for a list kept as pages: each entry stays in its page, a new one goes into the
 * page of the entry before it (the first page when it is the newest), so the cursors of the
 * pages still hold and fetching the next page goes on where the list ends.
 * Returns the same `data` when the change does not touch the list.
 */
export function applyChangeToPages(
  data: PagedList,
  change: ListChange,
  filter: ListFilter,
  options: { capacity?: number; viewerId?: number } = {},
): { data: PagedList; needsRefill: boolean } {
  if (data.pages.length === 0) return { data, needsRefill: false };
  const entries = entriesOf(data);
  const hasMore = hasMoreOf(data);
  const result = applyChange({ entries, hasMore }, change, filter, options);
  if (result.entries === entries) return { data, needsRefill: result.needsRefill };

  const pageOf = new Map<number, number>();
  data.pages.forEach((page, index) => {
    for (const entry of page.beverages) if (!pageOf.has(entry.id)) pageOf.set(entry.id, index);
  });
  const buckets: Beverage[][] = data.pages.map(() => []);
  let current = 0;
  for (const entry of result.entries) {
    current = Math.max(current, pageOf.get(entry.id) ?? current);
    buckets[current]!.push(entry);
  }
  const truncated = result.hasMore && !hasMore;
  const pages = data.pages.map((page, index) => ({
    ...page,
    beverages: buckets[index]!,
    ...(truncated && index === data.pages.length - 1 && { truncated: true }),
  }));
  return { data: { pages, pageParams: data.pageParams }, needsRefill: result.needsRefill };
}
