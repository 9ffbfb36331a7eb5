import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { drizzle, migrate } from '../../src/db/orm.ts';
import { sqliteDatabase } from '../../src/db/sqlite-database.ts';
import { expectInStep, insertEntries, random, seedUsers } from '../helpers/stats-tallies.ts';

/**
 * SQLite's own: a vault that had entries before migration 0009_stats_tallies gets its tallies
 * filled from them when the migration runs. (On PostgreSQL the tallies come with the schema,
 * before any entry: migrations-postgres/0001_tallies.sql.)
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

describe('the statistics tallies', () => {
  it('are filled from the entries already there when the migration runs', async () => {
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
    const oldDb = sqliteDatabase(old);
    await insertEntries(oldDb, await seedUsers(oldDb, 2), 150, random(7));
    old.close();

    const { database, close } = openDatabase(file);
    try {
      expect(await database.prepare('SELECT sum(n) FROM entry_tallies').pluck().get()).toBe(150);
      await expectInStep(database);
    } finally {
      close();
    }
  });
});
