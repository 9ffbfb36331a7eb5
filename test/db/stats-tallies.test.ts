import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { drizzle, migrate } from '../../src/db/orm.ts';

/**
 * The running tallies of each owner's entries (migration 0009_stats_tallies) against what
 * grouping the entries themselves gives, after every kind of write.
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

const GROUPED = {
  entry_tallies: `SELECT user_id, type, status, rating, in_cellar, subtype, count(*) AS n
    FROM beverages GROUP BY 1, 2, 3, 4, 5, 6`,
  maker_tallies: `SELECT user_id, type, maker_name, count(*) AS n
    FROM beverages WHERE maker_name <> '' GROUP BY 1, 2, 3`,
  maker_totals: `SELECT user_id, maker_name, count(*) AS n
    FROM beverages WHERE maker_name <> '' GROUP BY 1, 2`,
};

function expectInStep(sqlite: Database.Database) {
  for (const [table, grouped] of Object.entries(GROUPED)) {
    const tallied = sqlite.prepare(`SELECT * FROM ${table}`).all();
    const counted = sqlite.prepare(grouped).all();
    const key = (row: unknown) => JSON.stringify(row);
    expect(tallied.map(key).sort(), table).toEqual(counted.map(key).sort());
  }
}

/** A small deterministic random source, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

const TYPES = ['WHISKEY', 'WINE', 'BEER'];
const SUBTYPES = ['Bourbon', 'Rioja', 'IPA', 'Stout'];
const MAKERS = ['', 'Springbank', 'springbank', 'Musar', 'Russian River'];

function seedUsers(sqlite: Database.Database, count: number): number[] {
  const add = sqlite.prepare(
    `INSERT INTO users (username, full_name, email, role, password_hash)
     VALUES (?, 'T', ?, 'USER', 'x')`,
  );
  return Array.from({ length: count }, (_, i) =>
    Number(add.run(`tally_${i}`, `tally${i}@example.com`).lastInsertRowid),
  );
}

function insertEntries(
  sqlite: Database.Database,
  users: number[],
  count: number,
  rnd: () => number,
) {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const add = sqlite.prepare(
    `INSERT INTO beverages (user_id, type, name, subtype, maker_name, rating, status, in_cellar, created_at, updated_at)
     VALUES (?, ?, 'Entry', ?, ?, ?, ?, ?, 0, 0)`,
  );
  for (let i = 0; i < count; i++) {
    const tried = rnd() < 0.7;
    add.run(
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

describe('the statistics tallies', () => {
  it('stay in step with the entries through inserts, changes of every counted column, deletes and a removed user', () => {
    const { sqlite, close } = openDatabase(path.join(tempDir(), 'vault.sqlite'));
    try {
      const rnd = random(42);
      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
      const users = seedUsers(sqlite, 3);
      insertEntries(sqlite, users, 200, rnd);
      expectInStep(sqlite);
      const ids = () => sqlite.prepare('SELECT id FROM beverages').pluck().all() as number[];
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
        sqlite.prepare(`UPDATE beverages SET ${column} = ? WHERE id = ?`).run(value(), pick(ids()));
      }
      expectInStep(sqlite);
      // Several columns at once, and many rows in one statement.
      sqlite
        .prepare(`UPDATE beverages SET type = 'WINE', maker_name = 'Musar' WHERE id % 3 = 0`)
        .run();
      expectInStep(sqlite);
      for (let i = 0; i < 80; i++)
        sqlite.prepare('DELETE FROM beverages WHERE id = ?').run(pick(ids()));
      expectInStep(sqlite);
      sqlite.prepare('DELETE FROM users WHERE id = ?').run(users[0]);
      expectInStep(sqlite);
      expect(
        sqlite
          .prepare('SELECT count(*) FROM entry_tallies WHERE user_id = ?')
          .pluck()
          .get(users[0]),
      ).toBe(0);
      sqlite.prepare('DELETE FROM beverages').run();
      expectInStep(sqlite);
      expect(sqlite.prepare('SELECT count(*) FROM maker_totals').pluck().get()).toBe(0);
    } finally {
      close();
    }
  });

  it('are filled from the entries already there when the migration runs', () => {
    const dir = tempDir();
    const file = path.join(dir, 'vault.sqlite');
    // The migrations up to the one before the tallies.
    const earlier = path.join(dir, 'migrations');
    const source = path.resolve(import.meta.dirname, '..', '..', 'migrations');
    fs.cpSync(source, earlier, { recursive: true });
    const journalFile = path.join(earlier, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as {
      entries: { tag: string }[];
    };
    const at = journal.entries.findIndex((e) => e.tag === '0009_stats_tallies');
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const old = new Database(file);
    migrate(drizzle(old), { migrationsFolder: earlier });
    expect(
      old.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'entry_tallies'`).pluck().get(),
    ).toBe(0);
    insertEntries(old, seedUsers(old, 2), 150, random(7));
    old.close();

    const { sqlite, close } = openDatabase(file);
    try {
      expect(sqlite.prepare('SELECT sum(n) FROM entry_tallies').pluck().get()).toBe(150);
      expectInStep(sqlite);
    } finally {
      close();
    }
  });
});
