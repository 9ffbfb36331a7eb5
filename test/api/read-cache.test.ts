import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openConfiguredDatabase } from '../../src/db/client.ts';
import { createReadCache, OTHER_PROCESS_WRITES_SEEN_WITHIN_MS } from '../../src/db/read-cache.ts';
import { sqliteDatabase } from '../../src/db/sqlite-database.ts';
import { countWrites } from '../../src/db/write-counter.ts';
import { createTestVault } from '../helpers/vault.ts';

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function database() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-cache-'));
  const file = path.join(dir, 'test.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('create table t (id integer primary key, v text)');
  db.prepare('insert into t (id, v) values (1, ?)').run('first');
  opened.push(db);
  return { db, file };
}

describe('the read cache', () => {
  it('reads once while nothing changes, and again after this connection writes', async () => {
    const { db } = database();
    let reads = 0;
    const read = async (id: number) => {
      reads++;
      return (db.prepare('select v from t where id = ?').get(id) as { v: string } | undefined)?.v;
    };
    const cache = createReadCache<number, string>(sqliteDatabase(db));
    expect(await cache.get(1, read)).toBe('first');
    expect(await cache.get(1, read)).toBe('first');
    expect(reads).toBe(1);
    db.prepare('update t set v = ? where id = 1').run('second');
    expect(await cache.get(1, read)).toBe('second');
    expect(reads).toBe(2);
  });

  it('keeps nothing read inside a transaction, which may not commit', async () => {
    const { db } = database();
    countWrites(db);
    const vault = sqliteDatabase(db);
    const select = vault.prepare('select v from t where id = ?').pluck<string>();
    const cache = createReadCache<number, string>(vault);
    const read = (id: number) => select.get(id);
    let readInside!: () => void;
    // Another request, which asks once the transaction has read the row it wrote.
    const outside = new Promise<void>((resolve) => (readInside = resolve)).then(() =>
      cache.get(1, read),
    );
    await expect(
      vault.transaction(async () => {
        await vault.prepare('update t set v = ? where id = 1').run('uncommitted');
        expect(await cache.get(1, read)).toBe('uncommitted');
        readInside();
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await outside).toBe('first');
    expect(await cache.get(1, read)).toBe('first');
  });

  it('counts every kind of write of a connection opened by the vault, and no read', async () => {
    const { db } = database();
    const counter = countWrites(db);
    let reads = 0;
    const read = async (id: number) => {
      reads++;
      return (db.prepare('select v from t where id = ?').get(id) as { v: string } | undefined)?.v;
    };
    const cache = createReadCache<number, string>(sqliteDatabase(db));
    await cache.get(1, read);
    await cache.get(1, read);
    expect(reads).toBe(1);
    const update = db.prepare('update t set v = ? where id = 1');
    update.run('run');
    expect(await cache.get(1, read)).toBe('run');
    db.prepare('update t set v = ? where id = 1 returning v').get('returning');
    expect(await cache.get(1, read)).toBe('returning');
    db.exec("update t set v = 'exec' where id = 1");
    expect(await cache.get(1, read)).toBe('exec');
    db.transaction(() => update.run('in a transaction'))();
    expect(await cache.get(1, read)).toBe('in a transaction');
    expect(reads).toBe(5);
    const before = counter.writes;
    db.prepare('select count(*) from t').get();
    expect(counter.writes).toBe(before);
  });

  it('sees a write by another connection within the documented window', async () => {
    const { db, file } = database();
    let now = 0;
    const cache = createReadCache<number, string>(sqliteDatabase(db, { now: () => now }));
    const read = async (id: number) =>
      (db.prepare('select v from t where id = ?').get(id) as { v: string } | undefined)?.v;
    expect(await cache.get(1, read)).toBe('first');
    const other = new Database(file);
    opened.push(other);
    other.prepare('update t set v = ? where id = 1').run('from the CLI');
    now += OTHER_PROCESS_WRITES_SEEN_WITHIN_MS;
    expect(await cache.get(1, read)).toBe('from the CLI');
  });

  it('lets a session ended by another process (the CLI) stop working at once after the window', async () => {
    const vault = createTestVault();
    try {
      const alice = await vault.createUser({ username: 'alice' });
      const cookie = await vault.login('alice', alice.password);
      expect((await vault.request('/api/auth/me', { cookie })).status).toBe(200);
      // The vault's database opened again, as the CLI opens it: another connection.
      const cli = openConfiguredDatabase(vault.config);
      try {
        await cli.database.prepare('delete from sessions where user_id = ?').run(alice.id);
        await new Promise((resolve) =>
          setTimeout(resolve, OTHER_PROCESS_WRITES_SEEN_WITHIN_MS + 50),
        );
        expect((await vault.request('/api/auth/me', { cookie })).status).toBe(401);
      } finally {
        await cli.close();
      }
    } finally {
      await vault.close();
    }
  });
});
