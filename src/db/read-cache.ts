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
  return {
    async get(key: K, read: (key: K) => Promise<V | undefined>): Promise<V | undefined> {
      if (db.inTransaction()) return read(key);
      const current = stamp.current();
      if (current !== generation) {
        entries.clear();
        generation = current;
      } else if (entries.has(key)) {
        return entries.get(key);
      }
      const value = await read(key);
      if (stamp.current() !== generation) return value;
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, value);
      return value;
    },
  };
}

export { OTHER_PROCESS_WRITES_SEEN_WITHIN_MS } from './sqlite-change-stamp.ts';
