import type Database from 'better-sqlite3';
import { writeCounterOf } from './write-counter.ts';

/**
 * How long a write by another process (the CLI: a password reset, a removed second factor) may
 * go unseen by the caches below. Writes by the server itself are seen at once.
 */
export const OTHER_PROCESS_WRITES_SEEN_WITHIN_MS = 250;

interface ChangeStamp {
  /** A number that changes whenever the database may have changed. */
  current(): number;
  /** A number that changes when another connection (process) has written. */
  otherConnections(): number;
}

const stamps = new WeakMap<Database.Database, ChangeStamp>();

/**
 * Detects changes to the database cheaply. This connection's own writes are counted as they run
 * (src/db/write-counter.ts; for a connection opened elsewhere, `total_changes()` is asked,
 * which costs a statement); `PRAGMA data_version` changes when another connection commits, but
 * costs as much as a lookup, so it is asked at most every 250 ms.
 */
function changeStamp(sqlite: Database.Database, now: () => number): ChangeStamp {
  let stamp = stamps.get(sqlite);
  if (stamp) return stamp;
  // This connection's writes: counted in JavaScript when the connection was opened through
  // openDatabase (src/db/write-counter.ts), else asked of SQLite.
  const counter = writeCounterOf(sqlite);
  const totalChanges = counter ? undefined : sqlite.prepare('SELECT total_changes()').pluck();
  const ownChanges = { get: () => (counter ? counter.writes : totalChanges!.get()) };
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let generation = 0;
  let others = 0;
  let lastOwn: unknown;
  let lastVersion: unknown;
  let versionCheckedAt = -Infinity;
  const checkOthers = () => {
    const t = now();
    if (t - versionCheckedAt < OTHER_PROCESS_WRITES_SEEN_WITHIN_MS) return;
    versionCheckedAt = t;
    const version = dataVersion.get();
    if (version !== lastVersion) {
      lastVersion = version;
      others++;
      generation++;
    }
  };
  stamp = {
    current() {
      const own = ownChanges.get();
      if (own !== lastOwn) {
        lastOwn = own;
        generation++;
      }
      checkOthers();
      return generation;
    },
    otherConnections() {
      checkOthers();
      return others;
    },
  };
  stamps.set(sqlite, stamp);
  return stamp;
}

/**
 * A number that changes when another process has written to the database (seen within
 * 250 ms): for caches that follow this process's own writes themselves.
 */
export function otherProcessWrites(
  sqlite: Database.Database,
  now: () => number = Date.now,
): () => number {
  const stamp = changeStamp(sqlite, now);
  return () => stamp.otherConnections();
}

/**
 * Memoizes a point read (a row by its key) until the database changes: any write by the
 * server, or by another process within 250 ms, empties it. For the reads every signed-in
 * request makes (its session and its user), which were a quarter of such a request's cost.
 * Rows are returned as stored: callers must not change them without writing them back.
 */
export function createReadCache<K, V>(
  sqlite: Database.Database,
  options: { maxEntries?: number; now?: () => number } = {},
) {
  const stamp = changeStamp(sqlite, options.now ?? Date.now);
  const maxEntries = options.maxEntries ?? 1000;
  const entries = new Map<K, V | undefined>();
  let generation = -1;
  return {
    get(key: K, read: (key: K) => V | undefined): V | undefined {
      const current = stamp.current();
      if (current !== generation) {
        entries.clear();
        generation = current;
      } else if (entries.has(key)) {
        return entries.get(key);
      }
      const value = read(key);
      if (entries.size >= maxEntries) entries.clear();
      entries.set(key, value);
      return value;
    },
  };
}
