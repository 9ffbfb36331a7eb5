import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { sqliteDatabase } from '../../src/db/sqlite-database.ts';

let dir: string;
let sqlite: BetterSqlite.Database;
let db: Database;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-db-'));
  sqlite = new BetterSqlite(path.join(dir, 'test.db'));
  db = sqliteDatabase(sqlite);
  await db.exec('CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  await db.prepare("INSERT INTO counters VALUES ('a', 0)").run();
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const read = () => db.prepare("SELECT n FROM counters WHERE name = 'a'").pluck<number>().get();
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the SQLite database', () => {
  it('runs statements with positional and named parameters', async () => {
    await db.prepare('INSERT INTO counters VALUES (?, ?)').run('b', 2);
    const changed = await db.prepare('UPDATE counters SET n = @n WHERE name = @name').run({
      n: 5,
      name: 'b',
    });
    expect(changed.changes).toBe(1);
    expect(await db.prepare('SELECT name, n FROM counters ORDER BY name').all()).toEqual([
      { name: 'a', n: 0 },
      { name: 'b', n: 5 },
    ]);
  });

  it('commits a transaction, and rolls all of it back on an exception', async () => {
    const bump = db.prepare("UPDATE counters SET n = n + 1 WHERE name = 'a'");
    await db.transaction(async () => {
      await bump.run();
      await bump.run();
    });
    expect(await read()).toBe(2);
    await expect(
      db.transaction(async () => {
        await bump.run();
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await read()).toBe(2);
  });

  it('keeps a statement from outside a transaction out of it until it ends', async () => {
    const bump = db.prepare("UPDATE counters SET n = n + 1 WHERE name = 'a'");
    let seen: number | undefined;
    const writing = db.transaction(async () => {
      await bump.run();
      await tick();
      // Meanwhile the read below has been asked for: it must not see this half of the write.
      await bump.run();
      throw new Error('changed my mind');
    });
    const reading = read().then((n) => (seen = n));
    await expect(writing).rejects.toThrow('changed my mind');
    await reading;
    expect(seen).toBe(0);
  });

  it('runs transactions that read and then write one after another', async () => {
    const set = db.prepare("UPDATE counters SET n = ? WHERE name = 'a'");
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction(async () => {
          const n = (await read())!;
          await tick();
          await set.run(n + 1);
        }),
      ),
    );
    expect(await read()).toBe(20);
  });

  it('makes a nested transaction a savepoint', async () => {
    const bump = db.prepare("UPDATE counters SET n = n + 1 WHERE name = 'a'");
    await db.transaction(async () => {
      expect(db.inTransaction()).toBe(true);
      await bump.run();
      await db
        .transaction(async () => {
          await bump.run();
          throw new Error('inner');
        })
        .catch(() => undefined);
      await bump.run();
    });
    expect(db.inTransaction()).toBe(false);
    expect(await read()).toBe(2);
  });
});
