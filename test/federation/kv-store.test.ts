import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteKvStore } from '../../federation/kv-store.ts';
import { durationFromMs } from '../../federation/temporal.ts';
import { tempDatabase } from './temp-database.ts';

let db: ReturnType<typeof tempDatabase>;
let now = Date.parse('2025-01-01T00:00:00Z');
let kv: SqliteKvStore;

beforeAll(async () => {
  db = tempDatabase();
  await db.ready;
  kv = new SqliteKvStore(db.database.database, { now: () => now, purgeIntervalMs: 0 });
});
afterAll(async () => {
  kv.close();
  await db.remove();
});

async function collect(iterable: AsyncIterable<{ key: readonly string[]; value: unknown }>) {
  const entries = [];
  for await (const entry of iterable) entries.push(entry);
  return entries;
}

describe('SqliteKvStore', () => {
  it('returns undefined, not null, for a key that was never set', async () => {
    const value = await kv.get(['missing', 'key']);
    expect(value).toBeUndefined();
    expect(value).not.toBeNull();
  });

  it('stores JSON values under array keys and gives them back', async () => {
    const value = { id: 'https://remote.example/users/bob', n: 3, tags: ['a', null], ok: true };
    await kv.set(['_fedify', 'remoteDocument', 'https://remote.example/users/bob'], value);
    expect(await kv.get(['_fedify', 'remoteDocument', 'https://remote.example/users/bob'])).toEqual(
      value,
    );
    // The key parts are kept apart: ["a,b"] is not ["a", "b"].
    await kv.set(['a,b'], 1);
    await kv.set(['a', 'b'], 2);
    expect(await kv.get(['a,b'])).toBe(1);
    expect(await kv.get(['a', 'b'])).toBe(2);
  });

  it('keeps a stored null apart from a missing key', async () => {
    await kv.set(['explicit-null'], null);
    expect(await kv.get(['explicit-null'])).toBeNull();
  });

  it('overwrites a value and deletes it', async () => {
    await kv.set(['counter'], 1);
    await kv.set(['counter'], 2);
    expect(await kv.get(['counter'])).toBe(2);
    await kv.delete(['counter']);
    expect(await kv.get(['counter'])).toBeUndefined();
    await expect(kv.delete(['counter'])).resolves.toBeUndefined();
  });

  it('treats an entry as missing once its ttl has passed, and purges it', async () => {
    await kv.set(['ttl', 'short'], 'soon gone', { ttl: durationFromMs(1_000) });
    await kv.set(['ttl', 'forever'], 'stays');
    expect(await kv.get(['ttl', 'short'])).toBe('soon gone');
    now += 999;
    expect(await kv.get(['ttl', 'short'])).toBe('soon gone');
    now += 1;
    expect(await kv.get(['ttl', 'short'])).toBeUndefined();
    expect(await collect(kv.list(['ttl']))).toEqual([{ key: ['ttl', 'forever'], value: 'stays' }]);
    // Read lazily deleted the row; an expired one nobody reads goes with the periodic purge.
    await kv.set(['ttl', 'unread'], 'x', { ttl: durationFromMs(10) });
    now += 10;
    expect(await kv.purgeExpired()).toBe(1);
    const rows = await db.database.database
      .prepare('SELECT key FROM federation_kv WHERE key LIKE \'["ttl"%\'')
      .all();
    expect(rows).toEqual([{ key: '["ttl","forever"]' }]);
  });

  it('sets a value again without a ttl, which removes the old expiry', async () => {
    await kv.set(['renewed'], 'v1', { ttl: durationFromMs(5) });
    await kv.set(['renewed'], 'v2');
    now += 60_000;
    expect(await kv.get(['renewed'])).toBe('v2');
  });

  it('compares and swaps only when the current value matches', async () => {
    expect(await kv.cas(['cas'], undefined, { state: 'closed', failures: 0 })).toBe(true);
    expect(await kv.cas(['cas'], undefined, { state: 'open' })).toBe(false);
    expect(await kv.cas(['cas'], { state: 'open', failures: 0 }, { state: 'half' })).toBe(false);
    expect(await kv.cas(['cas'], { failures: 0, state: 'closed' }, { state: 'open' })).toBe(true);
    expect(await kv.get(['cas'])).toEqual({ state: 'open' });
    expect(await kv.cas(['cas'], { state: 'open' }, undefined)).toBe(true);
    expect(await kv.get(['cas'])).toBeUndefined();
  });

  it('lists the entries under a prefix, including the prefix key itself, and nothing else', async () => {
    await kv.set(['list', 'x'], 1);
    await kv.set(['list', 'x', '1'], 2);
    await kv.set(['list', 'x', '2', 'deep'], 3);
    await kv.set(['list', 'x%_'], 4);
    await kv.set(['list', 'xy'], 5);
    await kv.set(['listing'], 6);
    const under = await collect(kv.list(['list', 'x']));
    expect(under.map((e) => e.key)).toHaveLength(3);
    expect(under).toEqual(
      expect.arrayContaining([
        { key: ['list', 'x'], value: 1 },
        { key: ['list', 'x', '1'], value: 2 },
        { key: ['list', 'x', '2', 'deep'], value: 3 },
      ]),
    );
    const all = await collect(kv.list(['list']));
    expect(all).toHaveLength(5);
    const everything = await collect(kv.list());
    expect(everything.map((e) => e.key)).toContainEqual(['listing']);
  });

  it('keeps its data in the database for the next connection', async () => {
    await kv.set(['persisted'], { ok: 1 });
    const other = new SqliteKvStore(db.open().database, { purgeIntervalMs: 0 });
    expect(await other.get(['persisted'])).toEqual({ ok: 1 });
    other.close();
  });
});
