import { QueryClient } from '@tanstack/query-core';
import { afterEach, describe, expect, it } from 'vitest';
import { entry, ids, tried } from './entries.ts';
import { ApiError } from '../../web/src/api/client.ts';
import { createQueryClient, shouldRetry } from '../../web/src/api/query-client.ts';
import { queryKeys } from '../../web/src/api/query-keys.ts';
import { applyChangeToCachedLists } from '../../web/src/vault/list-cache.ts';
import {
  applyChangeToPages,
  entriesOf,
  hasMoreOf,
  type PagedList,
} from '../../web/src/vault/list-state.ts';

/** Two pages, newest first: [d, c] then [b, a], with more on the server after a. */
function twoPages() {
  const [a, b, c, d] = [entry(), entry(), entry(), entry()];
  const data: PagedList = {
    pages: [
      { beverages: [d!, c!], nextCursor: 'after-c' },
      { beverages: [b!, a!], nextCursor: 'after-a' },
    ],
    pageParams: [undefined, 'after-c'],
  };
  return { a: a!, b: b!, c: c!, d: d!, data };
}

describe('a paged list following changes', () => {
  it('reads its entries in order, each once, and whether the server holds more', () => {
    const { a, b, c, d, data } = twoPages();
    expect(ids(entriesOf(data))).toEqual([d.id, c.id, b.id, a.id]);
    const repeated = { ...data, pages: [...data.pages, { beverages: [a], nextCursor: null }] };
    expect(ids(entriesOf(repeated))).toEqual([d.id, c.id, b.id, a.id]);
    expect(hasMoreOf(data)).toBe(true);
    expect(hasMoreOf(repeated)).toBe(false);
    expect(entriesOf(undefined)).toEqual([]);
    expect(hasMoreOf(undefined)).toBe(false);
  });

  it('puts a new entry at the top of the first page and keeps the cursors', () => {
    const { data } = twoPages();
    const fresh = entry();
    const result = applyChangeToPages(data, { kind: 'saved', entry: fresh }, tried);
    expect(result.data.pages[0]!.beverages[0]).toEqual(fresh);
    expect(result.data.pages.map((page) => page.nextCursor)).toEqual(['after-c', 'after-a']);
    expect(result.data.pageParams).toBe(data.pageParams);
    expect(result.needsRefill).toBe(false);
  });

  it('replaces a changed entry in its own page and removes one that no longer matches', () => {
    const { a, b, c, d, data } = twoPages();
    const renamed = applyChangeToPages(
      data,
      { kind: 'saved', entry: { ...b, name: 'Renamed' } },
      tried,
    );
    expect(renamed.data.pages[1]!.beverages.map((e) => e.name)).toEqual(['Renamed', a.name]);
    const moved = applyChangeToPages(
      data,
      { kind: 'saved', entry: { ...c, status: 'TO_TRY' } },
      tried,
    );
    expect(moved.data.pages.map((page) => ids(page.beverages))).toEqual([[d.id], [b.id, a.id]]);
    const deleted = applyChangeToPages(data, { kind: 'deleted', id: a.id }, tried);
    expect(deleted.data.pages.map((page) => ids(page.beverages))).toEqual([[d.id, c.id], [b.id]]);
  });

  it('inserts an entry between two pages into the page of the entry before it', () => {
    const { a, b, c, d, data } = twoPages();
    // Of the same moment as c but with a smaller id: it sorts right after c.
    const between = entry({ id: c.id - 1000, createdAt: c.createdAt });
    const result = applyChangeToPages(data, { kind: 'saved', entry: between }, tried);
    expect(result.data.pages.map((page) => ids(page.beverages))).toEqual([
      [d.id, c.id, between.id],
      [b.id, a.id],
    ]);
  });

  it('gives back the same data when the change does not touch the list', () => {
    const { data } = twoPages();
    const beer = entry({ type: 'BEER' });
    expect(applyChangeToPages(data, { kind: 'saved', entry: beer }, tried).data).toBe(data);
    expect(applyChangeToPages(data, { kind: 'deleted', id: 99_999 }, tried).data).toBe(data);
  });

  it('keeps a fixed list at its size, remembers it dropped one, and asks to refill it', () => {
    const four = [entry(), entry(), entry(), entry()].reverse();
    const data: PagedList = { pages: [{ beverages: four, nextCursor: null }], pageParams: [null] };
    const fresh = entry();
    const added = applyChangeToPages(data, { kind: 'saved', entry: fresh }, tried, {
      capacity: 4,
    });
    expect(ids(entriesOf(added.data))).toEqual([fresh.id, ...ids(four.slice(0, 3))]);
    expect(hasMoreOf(added.data)).toBe(true);
    const removed = applyChangeToPages(added.data, { kind: 'deleted', id: fresh.id }, tried, {
      capacity: 4,
    });
    expect(removed.needsRefill).toBe(true);
  });
});

describe('the cached lists following a change', () => {
  let client: QueryClient;
  afterEach(() => client.clear());

  const shape = { pageSize: 50, fixed: false };

  it('updates every list in place, or has it fetched again while searching', async () => {
    client = new QueryClient();
    const { data } = twoPages();
    const plainKey = queryKeys.beverages.list(tried, shape);
    const searchKey = queryKeys.beverages.list({ ...tried, q: 'cask' }, shape);
    const beerKey = queryKeys.beverages.list({ type: 'BEER' }, shape);
    client.setQueryData(plainKey, data);
    client.setQueryData(searchKey, data);
    client.setQueryData(beerKey, { pages: [{ beverages: [], nextCursor: null }], pageParams: [] });

    const fresh = entry();
    applyChangeToCachedLists(client, { kind: 'saved', entry: fresh }, 1);

    expect(entriesOf(client.getQueryData<PagedList>(plainKey))[0]).toEqual(fresh);
    expect(entriesOf(client.getQueryData<PagedList>(beerKey))).toEqual([]);
    // The search is not guessed at: it is marked for the server to answer again.
    expect(client.getQueryState(searchKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(plainKey)?.isInvalidated).toBe(false);
  });

  it('has lists by drinking window or place fetched again, and the cellar figures too', () => {
    client = new QueryClient();
    const empty = { pages: [{ beverages: [], nextCursor: null }], pageParams: [] };
    const windowKey = queryKeys.beverages.list({ cellar: true, window: 'NOW' }, shape);
    const placeKey = queryKeys.beverages.list({ cellar: true, placeId: 3 }, shape);
    const cellarKey = queryKeys.beverages.list({ cellar: true }, shape);
    for (const key of [windowKey, placeKey, cellarKey]) client.setQueryData(key, empty);
    client.setQueryData(queryKeys.cellar.summary, { bottles: 0 });

    // In the cellar, but whether it is inside its window this year or has a bottle in place 3
    // only the server can say: it is not put into those lists by guess.
    const fresh = entry({ inCellar: true, drinkFrom: 1990, drinkUntil: 1995 });
    applyChangeToCachedLists(client, { kind: 'saved', entry: fresh }, 1);

    expect(entriesOf(client.getQueryData<PagedList>(windowKey))).toEqual([]);
    expect(client.getQueryState(windowKey)?.isInvalidated).toBe(true);
    expect(entriesOf(client.getQueryData<PagedList>(placeKey))).toEqual([]);
    expect(client.getQueryState(placeKey)?.isInvalidated).toBe(true);
    expect(entriesOf(client.getQueryData<PagedList>(cellarKey))).toEqual([fresh]);
    expect(client.getQueryState(queryKeys.cellar.summary)?.isInvalidated).toBe(true);
  });

  it("refills the dashboard's four cards from the server when one leaves", () => {
    client = new QueryClient();
    const four = [entry(), entry(), entry(), entry()].reverse();
    const key = queryKeys.beverages.list(tried, { pageSize: 4, fixed: true });
    client.setQueryData(key, { pages: [{ beverages: four, nextCursor: 'more' }], pageParams: [] });
    applyChangeToCachedLists(client, { kind: 'deleted', id: four[0]!.id }, 1);
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });

  it("leaves out of the viewer's own lists an entry of someone else an admin edited", () => {
    client = new QueryClient();
    const key = queryKeys.beverages.list(tried, shape);
    const { data } = twoPages();
    client.setQueryData(key, data);
    applyChangeToCachedLists(
      client,
      { kind: 'saved', entry: entry({ userId: 2, isOwner: false }) },
      1,
    );
    expect(client.getQueryData(key)).toBe(data);
  });
});

describe('the query client', () => {
  it('never retries a 4xx, and retries a 5xx or an unreachable server once', () => {
    expect(shouldRetry(0, new ApiError('Not found', 404))).toBe(false);
    expect(shouldRetry(0, new ApiError('Too many', 429))).toBe(false);
    expect(shouldRetry(0, new ApiError('Broken', 500))).toBe(true);
    expect(shouldRetry(0, new ApiError('Unreachable', 0))).toBe(true);
    expect(shouldRetry(1, new ApiError('Broken', 500))).toBe(false);
    expect(shouldRetry(0, new Error('a bug'))).toBe(false);
  });

  it('does not refetch on window focus unless a query asks', () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.refetchOnWindowFocus).toBe(false);
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
  });
});
