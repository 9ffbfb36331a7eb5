import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellarBottlePageSchema, cellarSummarySchema } from '../../contract/cellar.ts';
import { json } from '../helpers/json.ts';
import { insertBottle, insertPlace } from '../helpers/cellar-rows.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The vault's clock: 31 December 2026, noon UTC; a test moves it past New Year and back (the
// windows are judged by its year; sessions would not outlive a larger jump).
const BASE = Date.UTC(2026, 11, 31, 12);
const NEW_YEAR = Date.UTC(2027, 0, 1, 0, 1);
let clock = BASE;

let vault: TestVault;
let alice: string;
let bob: string;
let carol: string;
const place: Record<string, number> = {};
const entry: Record<string, number> = {};

beforeAll(async () => {
  vault = createTestVault({ now: () => clock });
  const a = await vault.createUser({ username: 'alice' });
  const b = await vault.createUser({ username: 'bob' });
  const c = await vault.createUser({ username: 'carol' });
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  carol = await vault.login('carol', c.password);
  const db = vault.ctx.database.database;
  // Made out of order: the view goes by the tree and by name, not by when a place was made.
  place.kitchen = await insertPlace(db, a.id, 'Kitchen fridge');
  place.basement = await insertPlace(db, a.id, 'Basement');
  place.bin3 = await insertPlace(db, a.id, 'Bin 3');
  place.rackA = await insertPlace(db, a.id, 'Rack A', place.basement);
  await db.prepare('UPDATE places SET parent_id = ? WHERE id = ?').run(place.rackA, place.bin3);
  const log = async (name: string, fields: Record<string, string>) => {
    const made = await vault.logEntry(alice, { name, inCellar: 'true', ...fields });
    entry[name] = made.id;
    return made;
  };
  const musar = await log('Musar', { type: 'WINE', drinkFrom: '2020', drinkUntil: '2026' });
  await insertBottle(db, musar, {
    quantity: 3,
    placeId: place.rackA,
    priceMinor: 2550,
    currency: 'EUR',
  });
  await insertBottle(db, musar, {
    quantity: 1,
    sizeMl: 1500,
    vintage: 2015,
    placeId: place.kitchen,
    priceMinor: 6000,
    currency: 'EUR',
  });
  const alpha = await log('Alpha', { type: 'WINE', drinkUntil: '2020' });
  await insertBottle(db, alpha, { quantity: 2, priceMinor: 1000, currency: 'USD' });
  const zed = await log('Zed', { type: 'WINE' });
  await insertBottle(db, zed, {
    quantity: 6,
    sizeMl: 375,
    placeId: place.bin3,
    priceMinor: 500,
    currency: 'EUR',
  });
  // 'In cellar' without bottle lines: one bottle each.
  await log('Lagavulin', { type: 'WHISKEY' });
  await log('Later stout', { type: 'BEER', subtype: 'Stout', drinkFrom: '2027' });
  // Not in the cellar, no bottles: no part of it.
  await log('Gone', { type: 'BEER', inCellar: 'false', drinkFrom: '2020' });

  // Bob's cellar: never in alice's figures, nor hers in his.
  const bobs = await vault.logEntry(bob, { name: 'Bob wine', type: 'WINE', inCellar: 'true' });
  const bobPlace = await insertPlace(db, b.id, 'Garage');
  await insertBottle(db, bobs, {
    quantity: 12,
    placeId: bobPlace,
    priceMinor: 9900,
    currency: 'EUR',
  });
});
afterAll(() => vault.close());

async function summary(cookie: string) {
  const res = await vault.request('/api/cellar', { cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return cellarSummarySchema.strict().parse(await res.json());
}

async function page(cookie: string, query: string) {
  const res = await vault.request(`/api/cellar/bottles?${query}`, { cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return cellarBottlePageSchema.parse(await res.json());
}

/** Every line of the view, each page followed, as 'entry name @ place path'. */
async function lines(cookie: string, query = '', limit = 1): Promise<string[]> {
  const found: string[] = [];
  let cursor: string | null = null;
  do {
    const after: string = cursor ? `&cursor=${cursor}` : '';
    const answer = await page(cookie, `${query}&limit=${limit}${after}`);
    found.push(...answer.bottles.map((b) => `${b.entry.name} @ ${b.placePath.join(' › ')}`));
    cursor = answer.nextCursor;
  } while (cursor);
  return found;
}

describe('GET /api/cellar', () => {
  it("sums up the caller's cellar: bottles by type and window, value per currency, litres", async () => {
    clock = BASE;
    expect(await summary(alice)).toEqual({
      entries: 5,
      // 3 + 1 Musar, 2 Alpha, 6 Zed, and one each for Lagavulin and the stout (no lines).
      bottles: 14,
      byType: { WHISKEY: 1, WINE: 12, BEER: 1 },
      windows: { NOW: 4, PAST: 2, LATER: 1 },
      windowsByType: {
        WHISKEY: { NOW: 0, PAST: 0, LATER: 0 },
        WINE: { NOW: 4, PAST: 2, LATER: 0 },
        BEER: { NOW: 0, PAST: 0, LATER: 1 },
      },
      entriesByWindow: { NOW: 1, PAST: 1, LATER: 1 },
      value: [
        { currency: 'EUR', amount: 166.5 },
        { currency: 'USD', amount: 20 },
      ],
      litres: 7.5,
      year: 2026,
    });
  });

  it('judges the windows by the clock year', async () => {
    clock = NEW_YEAR;
    try {
      const figures = await summary(alice);
      expect(figures.windows).toEqual({ NOW: 1, PAST: 6, LATER: 0 });
      expect(figures.year).toBe(2027);
    } finally {
      clock = BASE;
    }
  });

  it("is the caller's own: bob's figures hold only his bottles", async () => {
    expect(await summary(bob)).toMatchObject({
      entries: 1,
      bottles: 12,
      byType: { WHISKEY: 0, WINE: 12, BEER: 0 },
      value: [{ currency: 'EUR', amount: 1188 }],
      litres: 9,
    });
    expect(await summary(carol)).toEqual({
      entries: 0,
      bottles: 0,
      byType: { WHISKEY: 0, WINE: 0, BEER: 0 },
      windows: { NOW: 0, PAST: 0, LATER: 0 },
      windowsByType: {
        WHISKEY: { NOW: 0, PAST: 0, LATER: 0 },
        WINE: { NOW: 0, PAST: 0, LATER: 0 },
        BEER: { NOW: 0, PAST: 0, LATER: 0 },
      },
      entriesByWindow: { NOW: 0, PAST: 0, LATER: 0 },
      value: [],
      litres: 0,
      year: 2026,
    });
  });

  it('needs a signed-in user', async () => {
    const res = await vault.request('/api/cellar');
    expect(res.status).toBe(401);
  });

  it('counts a line-less entry taken out of the cellar no more', async () => {
    const form = new FormData();
    form.set('inCellar', 'false');
    const res = await vault.request(`/api/beverages/${entry.Lagavulin}`, {
      method: 'PATCH',
      body: form,
      cookie: alice,
    });
    expect(res.status).toBe(200);
    try {
      expect(await summary(alice)).toMatchObject({ entries: 4, bottles: 13 });
    } finally {
      form.set('inCellar', 'true');
      await vault.request(`/api/beverages/${entry.Lagavulin}`, {
        method: 'PATCH',
        body: form,
        cookie: alice,
      });
    }
  });

  it("counts no bottle for an entry kept 'In cellar' after its bottles were all opened or taken off", async () => {
    const d = await vault.createUser({ username: 'dora' });
    const dora = await vault.login('dora', d.password);
    const log = (name: string) =>
      vault.logEntry(dora, { name, type: 'WINE', inCellar: 'true', drinkUntil: '2020' });
    const addLine = async (entryId: number) => {
      const res = await vault.postJson(`/api/beverages/${entryId}/bottles`, { quantity: 1 }, dora);
      expect(res.status, await res.clone().text()).toBe(201);
      return (await json(res)).bottle.id as number;
    };
    const opened = await log('Opened to the last');
    const openedLine = await addLine(opened.id);
    const removed = await log('Given away');
    const removedLine = await addLine(removed.id);
    // Never had a bottle line: the flag alone is one bottle.
    await log('Flag alone');
    expect(await summary(dora)).toMatchObject({ entries: 3, bottles: 3, windows: { PAST: 3 } });

    // The last bottle opened with 'Keep it in the cellar' (the default), the other line taken off.
    let res = await vault.postJson(
      `/api/beverages/${opened.id}/bottles/${openedLine}/open`,
      {},
      dora,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await json(res)).beverage).toMatchObject({ inCellar: true, bottleCount: 0 });
    res = await vault.request(`/api/beverages/${removed.id}/bottles/${removedLine}`, {
      method: 'DELETE',
      cookie: dora,
    });
    expect(res.status, await res.clone().text()).toBe(204);

    // Both are still 'In cellar' (entries), holding no bottle; the flag-alone entry holds one.
    expect(await summary(dora)).toMatchObject({
      entries: 3,
      bottles: 1,
      byType: { WHISKEY: 0, WINE: 1, BEER: 0 },
      windows: { NOW: 0, PAST: 1, LATER: 0 },
      windowsByType: { WINE: { NOW: 0, PAST: 1, LATER: 0 } },
      entriesByWindow: { NOW: 0, PAST: 3, LATER: 0 },
    });
  });
});

describe('GET /api/cellar/bottles', () => {
  it('lists the bottle lines by place (each after the place it is in), then entry name', async () => {
    const expected = [
      'Musar @ Basement › Rack A',
      'Zed @ Basement › Rack A › Bin 3',
      'Musar @ Kitchen fridge',
      'Alpha @ ',
    ];
    expect(await lines(alice)).toEqual(expected);
    expect(await lines(alice, '', 3)).toEqual(expected);
    const first = (await page(alice, 'limit=1')).bottles[0]!;
    expect(first).toMatchObject({
      beverageId: entry.Musar,
      quantity: 3,
      sizeMl: 750,
      vintage: null,
      placeId: place.rackA,
      price: 25.5,
      currency: 'EUR',
      entry: { id: entry.Musar, name: 'Musar', type: 'WINE', drinkFrom: 2020, drinkUntil: 2026 },
    });
  });

  it('filters by place (with the places inside it), none, type and window', async () => {
    expect(await lines(alice, `placeId=${place.basement}`)).toEqual([
      'Musar @ Basement › Rack A',
      'Zed @ Basement › Rack A › Bin 3',
    ]);
    expect(await lines(alice, `placeId=${place.bin3}`)).toEqual([
      'Zed @ Basement › Rack A › Bin 3',
    ]);
    expect(await lines(alice, 'placeId=none')).toEqual(['Alpha @ ']);
    expect(await lines(alice, 'type=WHISKEY')).toEqual([]);
    expect(await lines(alice, 'type=WINE&window=NOW')).toEqual([
      'Musar @ Basement › Rack A',
      'Musar @ Kitchen fridge',
    ]);
    expect(await lines(alice, 'window=PAST')).toEqual(['Alpha @ ']);
    clock = NEW_YEAR;
    try {
      expect(await lines(alice, 'window=PAST')).toEqual([
        'Musar @ Basement › Rack A',
        'Musar @ Kitchen fridge',
        'Alpha @ ',
      ]);
    } finally {
      clock = BASE;
    }
  });

  it("never shows another user's bottles, nor their places", async () => {
    expect(await lines(bob)).toEqual(['Bob wine @ Garage']);
    expect(await lines(bob, `placeId=${place.basement}`)).toEqual([]);
    expect(await lines(alice)).not.toContain('Bob wine @ Garage');
  });

  it('refuses a bad filter or cursor with a message', async () => {
    for (const [query, message] of [
      ['placeId=abc', 'placeId must be a place id or none'],
      ['type=CIDER', 'Type must be WHISKEY, WINE or BEER'],
      ['window=SOON', 'window must be NOW, PAST or LATER'],
      ['limit=501', 'limit must be a whole number from 1 to 500'],
      ['cursor=nonsense', 'The cursor is not valid'],
    ] as const) {
      const res = await vault.request(`/api/cellar/bottles?${query}`, { cookie: alice });
      expect({ status: res.status, message: (await json(res)).message }).toEqual({
        status: 400,
        message,
      });
    }
  });
});
