import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STATS_TOP, statsSchema, yearReviewSchema } from '../../contract/stats.ts';
import { monthRanges, monthStart } from '../../src/stats/calendar.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The vault's clock stands still at 15 July 2026, noon UTC.
const NOW = Date.UTC(2026, 6, 15, 12);

let vault: TestVault;
let alice: string;
let bob: string;

beforeAll(async () => {
  vault = createTestVault({ now: () => NOW });
  const a = await vault.createUser({ username: 'alice' });
  const b = await vault.createUser({ username: 'bob' });
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec('DELETE FROM beverages');
});

interface EntryInput {
  name?: string;
  type?: 'WHISKEY' | 'WINE' | 'BEER';
  subtype?: string;
  makerName?: string;
  rating?: number;
  status?: 'TRIED' | 'TO_TRY';
  inCellar?: boolean;
  /** When it was logged (ISO); the vault's clock otherwise. */
  at?: string;
}

const SUBTYPE = { WHISKEY: 'Bourbon', WINE: 'Merlot', BEER: 'IPA' } as const;

/** Logs an entry through the API, then moves its createdAt to `at`. */
async function log(cookie: string, input: EntryInput = {}): Promise<number> {
  const type = input.type ?? 'WHISKEY';
  const form = new FormData();
  form.append('name', input.name ?? 'Entry');
  form.append('type', type);
  form.append('subtype', input.subtype ?? SUBTYPE[type]);
  form.append('status', input.status ?? 'TRIED');
  form.append('rating', String(input.rating ?? 3));
  form.append('inCellar', String(input.inCellar ?? false));
  if (input.makerName) form.append('makerName', input.makerName);
  const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
  expect(res.status).toBe(201);
  const { beverage } = await json(res);
  if (input.at) {
    await vault.ctx.database.database
      .prepare('UPDATE beverages SET created_at = ? WHERE id = ?')
      .run(Date.parse(input.at), beverage.id);
  }
  return beverage.id as number;
}

async function stats(cookie: string, query = '') {
  const res = await vault.request(`/api/stats${query}`, { cookie });
  expect(res.status).toBe(200);
  return statsSchema.parse(await json(res));
}

async function review(cookie: string, year: number, query = '') {
  const res = await vault.request(`/api/stats/years/${year}${query}`, { cookie });
  expect(res.status).toBe(200);
  return yearReviewSchema.parse(await json(res));
}

async function refused(path: string, cookie?: string) {
  const res = await vault.request(path, cookie ? { cookie } : {});
  return { status: res.status, message: (await json(res)).message as string };
}

describe('the statistics of a vault', () => {
  it('refuses a visitor who is not signed in', async () => {
    expect(await refused('/api/stats')).toEqual({
      status: 401,
      message: expect.any(String),
    });
    expect((await refused('/api/stats/years/2025')).status).toBe(401);
  });

  it('are all zeros and empty lists for a user with no entries', async () => {
    const figures = await stats(alice);
    expect(figures.all).toEqual({
      total: 0,
      tried: 0,
      toTry: 0,
      inCellar: 0,
      averageRating: null,
      ratings: [0, 0, 0, 0, 0, 0],
      topSubtypes: [],
      topMakers: [],
    });
    expect(figures.years).toEqual([]);
    expect(
      figures.months.every((m) => m.counts.WHISKEY + m.counts.WINE + m.counts.BEER === 0),
    ).toBe(true);
  });

  it('count tried and to-try entries, ratings and the cellar, per type and in all', async () => {
    await log(alice, { type: 'WHISKEY', rating: 5, inCellar: true });
    await log(alice, { type: 'WHISKEY', rating: 4 });
    await log(alice, { type: 'WHISKEY', status: 'TO_TRY', rating: 0, inCellar: true });
    await log(alice, { type: 'WINE', rating: 2 });
    await log(alice, { type: 'BEER', status: 'TO_TRY', rating: 0 });

    const figures = await stats(alice);
    expect(figures.all).toMatchObject({
      total: 5,
      tried: 3,
      toTry: 2,
      inCellar: 2,
      averageRating: 3.7,
      ratings: [0, 0, 1, 0, 1, 1],
    });
    expect(figures.types.WHISKEY).toMatchObject({
      total: 3,
      tried: 2,
      toTry: 1,
      inCellar: 2,
      averageRating: 4.5,
      ratings: [0, 0, 0, 0, 1, 1],
    });
    expect(figures.types.WINE).toMatchObject({ total: 1, tried: 1, averageRating: 2 });
    expect(figures.types.BEER).toMatchObject({ total: 1, toTry: 1, averageRating: null });
  });

  it('count only the caller’s own entries', async () => {
    await log(alice, { type: 'WINE' });
    await log(bob, { type: 'BEER' });
    await log(bob, { type: 'BEER' });
    expect((await stats(alice)).all.total).toBe(1);
    expect((await stats(alice)).types.BEER.total).toBe(0);
    expect((await stats(bob)).all.total).toBe(2);
  });

  it('follow every change at once: a new rating, a deleted entry, a bottle out of the cellar', async () => {
    const kept = await log(alice, { type: 'WINE', rating: 2, inCellar: true });
    const gone = await log(alice, { type: 'WINE', rating: 5 });
    expect((await stats(alice)).types.WINE).toMatchObject({ total: 2, inCellar: 1 });

    const form = new FormData();
    form.append('rating', '4');
    form.append('inCellar', 'false');
    const edit = await vault.request(`/api/beverages/${kept}`, {
      method: 'PATCH',
      body: form,
      cookie: alice,
    });
    expect(edit.status).toBe(200);
    const remove = await vault.request(`/api/beverages/${gone}`, {
      method: 'DELETE',
      cookie: alice,
    });
    expect(remove.status).toBe(204);

    expect((await stats(alice)).types.WINE).toMatchObject({
      total: 1,
      inCellar: 0,
      averageRating: 4,
      ratings: [0, 0, 0, 0, 1, 0],
    });
  });

  it('rank subtypes and makers by how many entries they have, ties by name', async () => {
    const beers: [string, string, number][] = [
      ['IPA', 'Hill Farmstead', 3],
      ['Stout', 'Allagash', 2],
      ['Sour', 'Cantillon', 2],
      ['Lager', 'Augustiner', 1],
      ['Porter', 'Fuller’s', 1],
      ['Pilsner', 'Pilsner Urquell', 1],
    ];
    for (const [subtype, makerName, n] of beers) {
      for (let i = 0; i < n; i++) await log(alice, { type: 'BEER', subtype, makerName });
    }
    await log(alice, { type: 'BEER', subtype: 'Wheat' }); // no maker: not ranked
    await log(alice, { type: 'WINE', subtype: 'Merlot', makerName: 'Allagash' });

    const figures = await stats(alice);
    expect(figures.types.BEER.topSubtypes).toEqual([
      { name: 'IPA', count: 3 },
      { name: 'Sour', count: 2 },
      { name: 'Stout', count: 2 },
      { name: 'Lager', count: 1 },
      { name: 'Pilsner', count: 1 },
    ]);
    expect(figures.types.BEER.topMakers).toEqual([
      { name: 'Hill Farmstead', count: 3 },
      { name: 'Allagash', count: 2 },
      { name: 'Cantillon', count: 2 },
      { name: 'Augustiner', count: 1 },
      { name: 'Fuller’s', count: 1 },
    ]);
    // Every type together: a maker's entries of each type add up.
    expect(figures.all.topMakers.slice(0, 2)).toEqual([
      { name: 'Allagash', count: 3 },
      { name: 'Hill Farmstead', count: 3 },
    ]);
    expect(figures.all.topMakers).toHaveLength(STATS_TOP);
    expect(figures.types.WINE.topMakers).toEqual([{ name: 'Allagash', count: 1 }]);
  });

  it('count entries per month over the last twelve months, the current one last', async () => {
    await log(alice, { type: 'BEER', at: '2026-07-01T00:00:00Z' });
    await log(alice, { type: 'BEER', at: '2026-07-14T00:00:00Z' });
    await log(alice, { type: 'WINE', at: '2026-03-31T23:59:59Z' });
    await log(alice, { type: 'WHISKEY', at: '2025-08-01T00:00:00Z' });
    await log(alice, { type: 'WHISKEY', at: '2025-07-31T23:59:59Z' }); // 12 months ago and more

    const { months, years } = await stats(alice);
    expect(months.map((m) => m.month)).toEqual([
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
    ]);
    expect(months[11]!.counts).toEqual({ WHISKEY: 0, WINE: 0, BEER: 2 });
    expect(months[7]!.counts).toEqual({ WHISKEY: 0, WINE: 1, BEER: 0 });
    expect(months[0]!.counts).toEqual({ WHISKEY: 1, WINE: 0, BEER: 0 });
    const counted = months.reduce(
      (n, m) => n + m.counts.WHISKEY + m.counts.WINE + m.counts.BEER,
      0,
    );
    expect(counted).toBe(4);
    expect(years).toEqual([2026, 2025]);
  });

  it('place months in the time zone the client names', async () => {
    // 23:30 UTC on 31 March is 01:30 on 1 April in Paris (summer time, UTC+2).
    await log(alice, { type: 'WINE', at: '2026-03-31T23:30:00Z' });
    const utc = await stats(alice);
    const paris = await stats(alice, '?tz=Europe/Paris');
    expect(utc.timeZone).toBe('UTC');
    expect(paris.timeZone).toBe('Europe/Paris');
    expect(utc.months.find((m) => m.month === '2026-03')!.counts.WINE).toBe(1);
    expect(paris.months.find((m) => m.month === '2026-03')!.counts.WINE).toBe(0);
    expect(paris.months.find((m) => m.month === '2026-04')!.counts.WINE).toBe(1);
  });

  it('count in UTC when the time zone is left out or empty', async () => {
    expect((await stats(alice, '?tz=')).timeZone).toBe('UTC');
    expect((await review(alice, 2025, '?tz=')).timeZone).toBe('UTC');
  });

  it('refuse a time zone that does not exist, with a message', async () => {
    for (const tz of ['Mars/Olympus_Mons', '../../etc', 'x'.repeat(65)]) {
      expect(await refused(`/api/stats?tz=${encodeURIComponent(tz)}`, alice)).toEqual({
        status: 400,
        message: 'tz must be a time zone name such as Europe/Paris',
      });
    }
  });
});

describe('a year in review', () => {
  it('sums up the entries logged in that year only', async () => {
    const first = await log(alice, {
      name: 'First pour',
      type: 'WHISKEY',
      makerName: 'Buffalo Trace',
      rating: 4,
      at: '2025-01-02T10:00:00Z',
    });
    await log(alice, { name: 'Best', type: 'WINE', rating: 5, at: '2025-03-10T10:00:00Z' });
    await log(alice, { name: 'Also best', type: 'BEER', rating: 5, at: '2025-05-10T10:00:00Z' });
    await log(alice, { name: 'Meh', type: 'BEER', rating: 1, at: '2025-05-11T10:00:00Z' });
    await log(alice, {
      name: 'Wishlist',
      type: 'WINE',
      status: 'TO_TRY',
      rating: 0,
      at: '2025-11-11T10:00:00Z',
    });
    const last = await log(alice, {
      name: 'Last pour',
      type: 'WHISKEY',
      makerName: 'Buffalo Trace',
      rating: 3,
      at: '2025-12-31T22:00:00Z',
    });
    await log(alice, { name: 'Other year', rating: 5, at: '2024-12-31T23:00:00Z' });
    await log(alice, { name: 'This year', rating: 5 });
    await log(bob, { name: 'Bob’s', rating: 5, at: '2025-06-01T10:00:00Z' });

    const year = await review(alice, 2025);
    expect(year.year).toBe(2025);
    expect(year.all).toMatchObject({ total: 6, tried: 5, toTry: 1, averageRating: 3.6 });
    expect(year.types.WHISKEY.topMakers).toEqual([{ name: 'Buffalo Trace', count: 2 }]);
    expect(year.favourites.map((e) => e.name)).toEqual([
      'Also best',
      'Best',
      'First pour',
      'Last pour',
      'Meh',
    ]);
    expect(year.first).toMatchObject({ id: first, name: 'First pour', type: 'WHISKEY' });
    expect(year.first!.createdAt).toBe('2025-01-02T10:00:00.000Z');
    expect(year.last).toMatchObject({ id: last, name: 'Last pour' });
    expect(year.months.map((m) => m.month)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`),
    );
    expect(year.months[4]!.counts).toEqual({ WHISKEY: 0, WINE: 0, BEER: 2 });
    expect(year.months[11]!.counts).toEqual({ WHISKEY: 1, WINE: 0, BEER: 0 });
    expect(year.years).toEqual([2026, 2025, 2024]);
  });

  it('uses the year as the client’s time zone has it', async () => {
    // 22:00 UTC on 31 December 2025 is already 2026 in Tokyo.
    await log(alice, { name: 'New Year’s Eve', at: '2025-12-31T22:00:00Z' });
    expect((await review(alice, 2025)).last?.name).toBe('New Year’s Eve');
    expect((await review(alice, 2025, '?tz=Asia/Tokyo')).last).toBeNull();
    expect((await review(alice, 2026, '?tz=Asia/Tokyo')).first?.name).toBe('New Year’s Eve');
  });

  it('of a year without entries has zeros and no first or last entry', async () => {
    await log(alice, { at: '2025-06-01T10:00:00Z' });
    const year = await review(alice, 2019);
    expect(year.all.total).toBe(0);
    expect(year.favourites).toEqual([]);
    expect(year.first).toBeNull();
    expect(year.last).toBeNull();
  });

  it('is refused for a year to come or a year that is not a year', async () => {
    expect(await refused('/api/stats/years/2027', alice)).toEqual({
      status: 400,
      message: 'The year must be from 1970 to 2026',
    });
    expect(await refused('/api/stats/years/1969', alice)).toEqual({
      status: 400,
      message: 'The year must be from 1970 to 2026',
    });
    for (const year of ['twenty', '20255', '-2025', '2025.5']) {
      expect(await refused(`/api/stats/years/${year}`, alice)).toEqual({
        status: 400,
        message: 'The year must be four digits, such as 2025',
      });
    }
  });

  it('counts the current year so far', async () => {
    await log(alice, { name: 'Today' });
    const year = await review(alice, 2026);
    expect(year.all.total).toBe(1);
    expect(year.first?.name).toBe('Today');
  });
});

describe('calendar months in a time zone', () => {
  it('start at local midnight on the 1st, daylight saving and odd offsets included', () => {
    const iso = (year: number, month: number, tz: string) =>
      new Date(monthStart(year, month, tz)).toISOString();
    expect(iso(2026, 0, 'UTC')).toBe('2026-01-01T00:00:00.000Z');
    expect(iso(2026, 2, 'America/New_York')).toBe('2026-03-01T05:00:00.000Z'); // EST
    expect(iso(2026, 3, 'America/New_York')).toBe('2026-04-01T04:00:00.000Z'); // EDT
    expect(iso(2026, 0, 'Asia/Kathmandu')).toBe('2025-12-31T18:15:00.000Z'); // +05:45
    expect(iso(2026, 0, 'Australia/Lord_Howe')).toBe('2025-12-31T13:00:00.000Z'); // +11 in summer
    expect(iso(2026, 12, 'Europe/Paris')).toBe('2026-12-31T23:00:00.000Z'); // month 12: next January
  });

  it('come twelve in a row, each ending where the next begins', () => {
    const months = monthRanges(2025, 10, 12, 'Europe/Paris');
    expect(months.map((m) => m.month)).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
    ]);
    for (let i = 1; i < months.length; i++) expect(months[i]!.from).toBe(months[i - 1]!.to);
    // March has 31 days less the hour lost to summer time.
    const march = months.find((m) => m.month === '2026-03')!;
    expect(march.to - march.from).toBe((31 * 24 - 1) * 3600_000);
  });
});
