import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { postgresDatabase } from '../../src/db/postgres-database.ts';
import { testDatabase, type TestDatabase } from '../helpers/postgres.ts';

let target: TestDatabase;
let db: Database;

beforeEach(async () => {
  target = testDatabase()!;
  db = postgresDatabase(target.url, { setUp: () => target.create() });
  await db.exec('CREATE TABLE counters (name text PRIMARY KEY, n bigint NOT NULL)');
  await db.prepare("INSERT INTO counters VALUES ('a', 0)").run();
});
afterEach(async () => {
  await db.close();
  await target.drop();
});

const read = () => db.prepare("SELECT n FROM counters WHERE name = 'a'").pluck<number>().get();
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the PostgreSQL database', () => {
  it('takes ? and @name parameters, answers numbers, and keeps the case of an alias', async () => {
    await db.prepare('INSERT INTO counters VALUES (?, ?)').run('b', 2);
    const changed = await db
      .prepare('UPDATE counters SET n = @n WHERE name = @name')
      .run({ n: 5, name: 'b' });
    expect(changed.changes).toBe(1);
    expect(
      await db
        .prepare(
          'SELECT name AS counterName, n, count(*) OVER () AS total FROM counters ORDER BY counterName',
        )
        .all(),
    ).toEqual([
      { counterName: 'a', n: 0, total: 2 },
      { counterName: 'b', n: 5, total: 2 },
    ]);
  });

  it('says which statement failed', async () => {
    await expect(db.prepare('SELECT nope FROM counters').all()).rejects.toThrow(
      /column "nope" does not exist \(in: SELECT nope FROM counters\)/,
    );
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

  it("shows no transaction's writes to others before it commits", async () => {
    const bump = db.prepare("UPDATE counters SET n = n + 1 WHERE name = 'a'");
    let ask!: () => void;
    // Another request, asked while the transaction is open: it runs beside it.
    const outside = new Promise<void>((resolve) => (ask = resolve)).then(() => read());
    let inside: number | undefined;
    await expect(
      db.transaction(async () => {
        await bump.run();
        inside = await read();
        ask();
        expect(await outside).toBe(0);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(inside).toBe(1);
    expect(await read()).toBe(0);
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

  it("tells another process's read caches of a write, even one made just before closing", async () => {
    const other = postgresDatabase(target.url);
    try {
      await other.prepare('SELECT 1').get();
      const before = other.changes.otherConnections();
      await db.prepare("UPDATE counters SET n = 7 WHERE name = 'a'").run();
      await db.close();
      await expect.poll(() => other.changes.otherConnections()).toBeGreaterThan(before);
    } finally {
      await other.close();
    }
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
