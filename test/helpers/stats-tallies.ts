import { expect } from 'vitest';
import type { Database } from '../../src/db/database.ts';

/**
 * The running tallies of each owner's entries (migration 0009_stats_tallies on SQLite,
 * 0001_tallies on PostgreSQL) and what grouping the entries themselves gives, for
 * test/db/stats-tallies*.test.ts.
 */
const GROUPED = {
  entry_tallies: `SELECT user_id, type, status, rating, in_cellar, subtype, count(*) AS n
    FROM beverages GROUP BY 1, 2, 3, 4, 5, 6`,
  maker_tallies: `SELECT user_id, type, maker_name, count(*) AS n
    FROM beverages WHERE maker_name <> '' GROUP BY 1, 2, 3`,
  maker_totals: `SELECT user_id, maker_name, count(*) AS n
    FROM beverages WHERE maker_name <> '' GROUP BY 1, 2`,
};

export async function expectInStep(db: Database) {
  for (const [table, grouped] of Object.entries(GROUPED)) {
    const tallied = await db.prepare(`SELECT * FROM ${table}`).all();
    const counted = await db.prepare(grouped).all();
    const key = (row: unknown) => JSON.stringify(row);
    expect(tallied.map(key).sort(), table).toEqual(counted.map(key).sort());
  }
}

/** A small deterministic random source, so a failure can be replayed. */
export function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

export const TYPES = ['WHISKEY', 'WINE', 'BEER'];
export const SUBTYPES = ['Bourbon', 'Rioja', 'IPA', 'Stout'];
export const MAKERS = ['', 'Springbank', 'springbank', 'Musar', 'Russian River'];

export async function seedUsers(db: Database, count: number): Promise<number[]> {
  const add = db
    .prepare(
      `INSERT INTO users (username, full_name, email, role, password_hash)
       VALUES (?, 'T', ?, 'USER', 'x') RETURNING id`,
    )
    .pluck<number>();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await add.get(`tally_${i}`, `tally${i}@example.com`))!);
  return ids;
}

export async function insertEntries(
  db: Database,
  users: number[],
  count: number,
  rnd: () => number,
) {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const add = db.prepare(
    `INSERT INTO beverages (user_id, type, name, subtype, maker_name, rating, status, in_cellar, created_at, updated_at)
     VALUES (?, ?, 'Entry', ?, ?, ?, ?, ?, 0, 0)`,
  );
  for (let i = 0; i < count; i++) {
    const tried = rnd() < 0.7;
    await add.run(
      pick(users),
      pick(TYPES),
      pick(SUBTYPES),
      pick(MAKERS),
      tried ? Math.floor(rnd() * 6) : 0,
      tried ? 'TRIED' : 'TO_TRY',
      rnd() < 0.3 ? 1 : 0,
    );
  }
}
