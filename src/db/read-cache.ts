import type { Database } from './database.ts';

/**
 * A number that changes when another process has written to the database (seen within
 * OTHER_PROCESS_WRITES_SEEN_WITHIN_MS): for caches that follow this process's own writes
 * themselves.
 */
export function otherProcessWrites(db: Pick<Database, 'changes'>): () => number {
  const stamp = db.changes;
  return () => stamp.otherConnections();
}

/**
 * Memoizes a point read (a row by its key) until the database changes: any write by the
 * server, or by another process within OTHER_PROCESS_WRITES_SEEN_WITHIN_MS, empties it. For
 * the reads every signed-in request makes (its session and its user), which were a quarter of
 * such a request's cost. Rows are returned as stored: callers must not change them without
 * writing them back. A value read while the database changed is returned but not kept, and so
 * is one read inside a transaction: it may hold writes that are not committed, which a request
 * outside the transaction must not see, and which may yet be rolled back.
 */
export function createReadCache<K, V>(
  db: Pick<Database, 'changes' | 'inTransaction'>,
  options: { maxEntries?: number } = {},
) {
  const stamp = db.changes;
  const maxEntries = options.maxEntries ?? 1000;
  const entries = new Map<K, V | undefined>();
  let generation = -1;
  /** Whether `key` is memoized and still current (emptying the cache when it is not). */
  const fresh = (key: K) => {
    const current = stamp.current();
    if (current === generation) return entries.has(key);
    entries.clear();
    generation = current;
    return false;
  };
  return {
    async get(key: K, read: (key: K) => Promise<V | undefined>): Promise<V | undefined> {
      if (db.inTransaction()) return read(key);
      if (fresh(key)) return entries.get(key);
      const value = await read(key);
      if (stamp.current() !== generation) return value;
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, value);
      return value;
    },
    /**
     * The memoized value of `key` at once, without a promise, when it is current: `{ value }`,
     * else undefined (then `get` reads it). For the one path where a promise's cost shows, the
     * session and user of every signed-in request (src/http/session.ts).
     */
    peek(key: K): { value: V | undefined } | undefined {
      if (db.inTransaction() || !fresh(key)) return undefined;
      return { value: entries.get(key) };
    },
  };
}

export { OTHER_PROCESS_WRITES_SEEN_WITHIN_MS } from './sqlite-change-stamp.ts';
