import type BetterSqlite from 'better-sqlite3';
import type { ChangeStamp } from './database.ts';
import { writeCounterOf } from './write-counter.ts';

/**
 * How long a write by another process (the CLI: a password reset, a removed second factor) may
 * go unseen by the read caches (src/db/read-cache.ts). Writes by the server itself are seen at
 * once.
 */
export const OTHER_PROCESS_WRITES_SEEN_WITHIN_MS = 250;

const stamps = new WeakMap<BetterSqlite.Database, ChangeStamp>();

/**
 * Detects changes to the database cheaply. This connection's own writes are counted as they run
 * (src/db/write-counter.ts; for a connection opened elsewhere, `total_changes()` is asked,
 * which costs a statement); `PRAGMA data_version` changes when another connection commits, but
 * costs as much as a lookup, so it is asked at most every 250 ms.
 */
export function sqliteChangeStamp(
  sqlite: BetterSqlite.Database,
  now: () => number = Date.now,
): ChangeStamp {
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
