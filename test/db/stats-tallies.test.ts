import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openConfiguredDatabase } from '../../src/db/client.ts';
import { testDatabase } from '../helpers/postgres.ts';
import {
  MAKERS,
  SUBTYPES,
  TYPES,
  expectInStep,
  insertEntries,
  random,
  seedUsers,
} from '../helpers/stats-tallies.ts';

/**
 * The running tallies of each owner's entries (migration 0009_stats_tallies on SQLite,
 * 0001_tallies on PostgreSQL) against what grouping the entries themselves gives, after every
 * kind of write. (How SQLite's migration fills them for a vault that had entries before it:
 * test/db/stats-tallies-migration.test.ts.)
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-tallies-'));
  dirs.push(dir);
  return dir;
};

/** A new, migrated database: a SQLite file, or on PostgreSQL a database of its own. */
async function openTestDatabase() {
  const postgres = testDatabase();
  const handle = openConfiguredDatabase(
    {
      databasePath: path.join(tempDir(), 'vault.sqlite'),
      databaseUrl: postgres?.url ?? null,
      databasePoolSize: 2,
    },
    postgres ? { beforeMigrating: postgres.create } : {},
  );
  await handle.ready;
  return {
    db: handle.database,
    async close() {
      await handle.close();
      await postgres?.drop();
    },
  };
}

describe('the statistics tallies', () => {
  it('stay in step with the entries through inserts, changes of every counted column, deletes and a removed user', async () => {
    const { db, close } = await openTestDatabase();
    try {
      const rnd = random(42);
      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
      const users = await seedUsers(db, 3);
      await insertEntries(db, users, 200, rnd);
      await expectInStep(db);
      const ids = () => db.prepare('SELECT id FROM beverages').pluck<number>().all();
      const changes: [string, () => unknown][] = [
        ['type', () => pick(TYPES)],
        ['subtype', () => pick(SUBTYPES)],
        ['maker_name', () => pick(MAKERS)],
        ['rating', () => Math.floor(rnd() * 6)],
        ['status', () => pick(['TRIED', 'TO_TRY'])],
        ['in_cellar', () => (rnd() < 0.5 ? 1 : 0)],
        ['user_id', () => pick(users)],
        ['notes', () => 'not counted'],
      ];
      for (let i = 0; i < 300; i++) {
        const [column, value] = pick(changes);
        await db
          .prepare(`UPDATE beverages SET ${column} = ? WHERE id = ?`)
          .run(value(), pick(await ids()));
      }
      await expectInStep(db);
      // Several columns at once, and many rows in one statement.
      await db
        .prepare(`UPDATE beverages SET type = 'WINE', maker_name = 'Musar' WHERE id % 3 = 0`)
        .run();
      await expectInStep(db);
      for (let i = 0; i < 80; i++)
        await db.prepare('DELETE FROM beverages WHERE id = ?').run(pick(await ids()));
      await expectInStep(db);
      await db.prepare('DELETE FROM users WHERE id = ?').run(users[0]);
      await expectInStep(db);
      expect(
        await db
          .prepare('SELECT count(*) FROM entry_tallies WHERE user_id = ?')
          .pluck()
          .get(users[0]),
      ).toBe(0);
      await db.prepare('DELETE FROM beverages').run();
      await expectInStep(db);
      expect(await db.prepare('SELECT count(*) FROM maker_totals').pluck().get()).toBe(0);
    } finally {
      await close();
    }
  });
});
