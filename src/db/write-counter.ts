import type Database from 'better-sqlite3';

/** How many writing statements this connection has run (rolled back ones included). */
export interface WriteCounter {
  writes: number;
}

const counters = new WeakMap<Database.Database, WriteCounter>();
const WRITING_METHODS = ['run', 'get', 'all', 'iterate'] as const;

/**
 * Counts the writes of a connection in JavaScript, so the read caches (src/db/read-cache.ts)
 * learn that the database changed without asking SQLite: asking (`SELECT total_changes()`) was
 * the largest single cost of a signed-in request once its reads were cached. Every statement
 * the connection prepares that is not read-only (sqlite3_stmt_readonly, which better-sqlite3
 * exposes as `readonly`) bumps the count when it runs, and so does `exec`. Drizzle prepares its
 * statements through the same connection, so its writes count too.
 */
export function countWrites(sqlite: Database.Database): WriteCounter {
  const existing = counters.get(sqlite);
  if (existing) return existing;
  const counter: WriteCounter = { writes: 0 };
  const prepare = sqlite.prepare;
  const exec = sqlite.exec;
  sqlite.prepare = function (this: Database.Database, source: string) {
    const statement = prepare.call(this, source);
    if (!statement.readonly) {
      for (const name of WRITING_METHODS) {
        const method = statement[name] as (...args: unknown[]) => unknown;
        (statement as unknown as Record<string, unknown>)[name] = function (
          this: unknown,
          ...args: unknown[]
        ) {
          counter.writes++;
          return method.apply(this, args);
        };
      }
    }
    return statement;
  } as Database.Database['prepare'];
  sqlite.exec = function (this: Database.Database, source: string) {
    counter.writes++;
    return exec.call(this, source);
  };
  counters.set(sqlite, counter);
  return counter;
}

/** The write counter of a connection opened through openDatabase, if it has one. */
export function writeCounterOf(sqlite: Database.Database): WriteCounter | undefined {
  return counters.get(sqlite);
}
