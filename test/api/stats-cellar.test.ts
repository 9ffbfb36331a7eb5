import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statsSchema } from '../../contract/stats.ts';
import { insertBottle, insertBottleEvent, type BottleEventKind } from '../helpers/cellar-rows.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The vault's clock stands still at 15 July 2026, noon UTC: the twelve months are 2025-08 to
// 2026-07.
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
  const db = vault.ctx.database.database;
  const event = (
    entry: { id: number; userId: number },
    kind: BottleEventKind,
    change: number,
    at: string,
  ) =>
    insertBottleEvent(db, {
      userId: entry.userId,
      beverageId: entry.id,
      kind,
      change,
      at: Date.parse(at),
    });

  // Six added in February, one opened in March and one on the last evening of May (UTC): 4 left.
  const musar = await vault.logEntry(alice, { name: 'Musar', type: 'WINE', inCellar: 'true' });
  await insertBottle(db, musar, { quantity: 4, priceMinor: 2000, currency: 'EUR' });
  await event(musar, 'ADDED', 6, '2026-02-10T10:00:00Z');
  await event(musar, 'OPENED', -1, '2026-03-05T10:00:00Z');
  await event(musar, 'OPENED', -1, '2026-05-31T20:00:00Z');
  // Two added before the twelve months, one taken off in July: 1 left.
  const lagavulin = await vault.logEntry(alice, {
    name: 'Lagavulin',
    type: 'WHISKEY',
    inCellar: 'true',
  });
  await insertBottle(db, lagavulin, { quantity: 1, priceMinor: 8000, currency: 'GBP' });
  await event(lagavulin, 'ADDED', 2, '2025-06-01T10:00:00Z');
  await event(lagavulin, 'REMOVED', -1, '2026-07-01T10:00:00Z');
  // Bottles with no event (brought in by an import): there all along.
  const rioja = await vault.logEntry(alice, { name: 'Rioja', type: 'WINE', inCellar: 'true' });
  await insertBottle(db, rioja, { quantity: 2, priceMinor: 1500, currency: 'EUR' });
  // 'In cellar' without bottle lines, logged in April: one bottle from April on.
  const stout = await vault.logEntry(alice, {
    name: 'Stout',
    type: 'BEER',
    subtype: 'Stout',
    inCellar: 'true',
  });
  await db
    .prepare('UPDATE beverages SET created_at = ? WHERE id = ?')
    .run(Date.parse('2026-04-15T10:00:00Z'), stout.id);
  // Neither in the cellar nor with bottles.
  await vault.logEntry(alice, { name: 'Tried once', type: 'WINE' });

  // Bob's bottles are his alone.
  const bobs = await vault.logEntry(bob, { name: 'Bob wine', type: 'WINE', inCellar: 'true' });
  await insertBottle(db, bobs, { quantity: 11, priceMinor: 1000, currency: 'EUR' });
  await event(bobs, 'ADDED', 12, '2026-01-02T10:00:00Z');
  await event(bobs, 'OPENED', -1, '2026-03-03T10:00:00Z');
});
afterAll(() => vault.close());

async function cellarStats(cookie: string, query = '') {
  const res = await vault.request(`/api/stats${query}`, { cookie });
  expect(res.status, await res.clone().text()).toBe(200);
  return statsSchema.parse(await res.json()).cellar;
}

const MONTHS = [
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
];
const byMonth = (bottles: number[]) => MONTHS.map((month, i) => ({ month, bottles: bottles[i] }));

describe('the cellar in the statistics (GET /api/stats)', () => {
  it('counts the bottles opened in each of the twelve months', async () => {
    const { opened } = await cellarStats(alice);
    expect(opened).toEqual(byMonth([0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0]));
  });

  it("puts a bottle in the month of the caller's time zone", async () => {
    // 31 May, 20:00 UTC is 1 June in Auckland.
    const { opened } = await cellarStats(alice, '?tz=Pacific/Auckland');
    expect(opened).toEqual(byMonth([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0]));
  });

  it("gives the cellar's size at each month's end, the current month's being GET /cellar's", async () => {
    const { size } = await cellarStats(alice);
    expect(size).toEqual(byMonth([4, 4, 4, 4, 4, 4, 10, 9, 10, 9, 9, 8]));
    const now = await vault.request('/api/cellar', { cookie: alice });
    expect((await json(now)).bottles).toBe(8);
  });

  it('sums what the bottles in the cellar cost per type and currency', async () => {
    const { valueByType } = await cellarStats(alice);
    expect(valueByType).toEqual([
      { type: 'WHISKEY', currency: 'GBP', amount: 80 },
      { type: 'WINE', currency: 'EUR', amount: 110 },
    ]);
  });

  it("holds only the caller's own bottles", async () => {
    const mine = await cellarStats(bob);
    expect(mine.opened).toEqual(byMonth([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]));
    expect(mine.size).toEqual(byMonth([0, 0, 0, 0, 0, 12, 12, 11, 11, 11, 11, 11]));
    expect(mine.valueByType).toEqual([{ type: 'WINE', currency: 'EUR', amount: 110 }]);
  });

  it("counts no bottle for an entry kept 'In cellar' after its last bottle was opened", async () => {
    const c = await vault.createUser({ username: 'cleo' });
    const cleo = await vault.login('cleo', c.password);
    const kept = await vault.logEntry(cleo, { name: 'Kept', type: 'WINE', inCellar: 'true' });
    // Bought in May, its one bottle opened in June: the line went, the entry stayed 'In cellar'.
    const db = vault.ctx.database.database;
    for (const [kind, change, at] of [
      ['ADDED', 1, '2026-05-10T10:00:00Z'],
      ['OPENED', -1, '2026-06-10T10:00:00Z'],
    ] as const) {
      await insertBottleEvent(db, {
        userId: c.id,
        beverageId: kept.id,
        kind,
        change,
        at: Date.parse(at),
      });
    }
    const { size } = await cellarStats(cleo);
    expect(size).toEqual(byMonth([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]));
    const now = await vault.request('/api/cellar', { cookie: cleo });
    expect((await json(now)).bottles).toBe(0);
  });
});
