import { QueryClient } from '@tanstack/query-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../web/src/api/query-keys.ts';
import { entryCellarKeys } from '../../web/src/entry-cellar/api.ts';
import { fetchWholeCellar, isKept, keepInMemory } from '../../web/src/offline/device-queries.ts';

type KeptQuery = Parameters<typeof isKept>[0];

const asked = (queryKey: readonly unknown[], status: 'success' | 'error') =>
  ({ queryKey, state: { status } }) as unknown as KeptQuery;
const answered = (queryKey: readonly unknown[]) => asked(queryKey, 'success');

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });

function bottle(id: number, entryId: number) {
  return {
    id,
    beverageId: entryId,
    quantity: 2,
    sizeMl: 750,
    vintage: 2016,
    placeId: null,
    placePath: [],
    purchasedOn: null,
    price: null,
    currency: null,
    note: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    entry: {
      id: entryId,
      name: `Entry ${entryId}`,
      type: 'WINE',
      subtype: 'Syrah',
      makerName: '',
      photoPath: null,
      drinkFrom: null,
      drinkUntil: null,
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('what the device copy keeps', () => {
  it("keeps the user's own lists, the cellar and tastings, but not someone else's entries, a search, or anything unanswered", () => {
    const shape = { pageSize: 4, fixed: true };
    expect(isKept(answered(queryKeys.beverages.list({}, shape)))).toBe(true);
    expect(
      isKept(answered(queryKeys.beverages.list({ type: 'WINE', status: 'TRIED' }, shape))),
    ).toBe(true);
    expect(isKept(answered(queryKeys.cellar.summary))).toBe(true);
    expect(isKept(answered(entryCellarKeys.bottles(7)))).toBe(true);
    expect(isKept(answered(entryCellarKeys.tastings(7)))).toBe(true);

    expect(isKept(answered(queryKeys.beverages.list({ userId: 3 }, shape)))).toBe(false);
    expect(isKept(answered(queryKeys.beverages.list({ q: 'musar' }, shape)))).toBe(false);
    expect(isKept(answered(queryKeys.notifications))).toBe(false);
    expect(isKept(answered(queryKeys.activity))).toBe(false);
    expect(isKept(answered(queryKeys.profile('carol')))).toBe(false);
    expect(isKept(asked(queryKeys.cellar.summary, 'error'))).toBe(false);
  });
});

describe('the kept answers in memory', () => {
  it('stay for the whole session, so the cellar fetched at start is there when the signal goes; others go as usual', () => {
    const client = new QueryClient();
    keepInMemory(client);
    const gcTime = (key: readonly unknown[]) =>
      client.defaultQueryOptions({ queryKey: key }).gcTime;
    expect(gcTime(entryCellarKeys.bottles(7))).toBe(Infinity);
    expect(gcTime(queryKeys.beverages.list({}, { pageSize: 4, fixed: true }))).toBe(Infinity);
    expect(gcTime(entryCellarKeys.tastings(7))).toBe(Infinity);
    expect(gcTime(queryKeys.notifications)).not.toBe(Infinity);
  });
});

describe('fetching the whole cellar', () => {
  it('follows every page and gives each entry its own lines in order, and an entry whose bottles are gone none', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      if (url.startsWith('/api/cellar/places')) return json({ places: [] });
      if (!url.includes('cursor=')) {
        return json({ bottles: [bottle(9, 1), bottle(3, 2)], nextCursor: 'next' });
      }
      return json({ bottles: [bottle(4, 1)], nextCursor: null });
    });
    const client = new QueryClient();
    client.setQueryData(entryCellarKeys.bottles(5), [bottle(1, 5)]);

    await fetchWholeCellar(client);

    expect(asked.filter((url) => url.startsWith('/api/cellar/bottles'))).toEqual([
      '/api/cellar/bottles?limit=500',
      '/api/cellar/bottles?limit=500&cursor=next',
    ]);
    const ids = (entryId: number) =>
      client
        .getQueryData<{ id: number; entry?: unknown }[]>(entryCellarKeys.bottles(entryId))
        ?.map((line) => [line.id, 'entry' in line]);
    expect(ids(1)).toEqual([
      [4, false],
      [9, false],
    ]);
    expect(ids(2)).toEqual([[3, false]]);
    expect(ids(5)).toEqual([]);
    expect(client.getQueryData(entryCellarKeys.places)).toEqual([]);
  });
});
