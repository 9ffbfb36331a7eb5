import Database from 'better-sqlite3';
import pg from 'pg';

type Statement = ReturnType<Database.Database['prepare']>;
const RUNS = ['run', 'get', 'all', 'iterate'] as const;

/**
 * The read caches ask it at most every 250 ms of the wall clock (src/db/read-cache.ts): how
 * often it runs says nothing about the request it runs in, so it is not recorded.
 */
const CLOCK_BOUND = 'PRAGMA data_version';

/**
 * On PostgreSQL, what src/db/postgres-database.ts runs around the statements (a transaction's
 * BEGIN, lock, savepoints and COMMIT, the announcement of a write), as SQLite's `exec` runs them
 * unrecorded.
 */
const AROUND =
  /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|LISTEN|UNLISTEN|SELECT pg_advisory_xact_lock|SELECT pg_notify)\b/i;

/**
 * Records the statements that connections opened from now on run (each run of `run`, `get`,
 * `all` or `iterate`, by its SQL), while `during` waits for something. Every statement of the
 * app is prepared through `Database.prototype.prepare` (drizzle's too, and the write counter of
 * src/db/write-counter.ts wraps it), so call this before the vault is created, and `restore`
 * after it is closed: test files share their worker (vitest.config.ts, isolate: false). On
 * PostgreSQL every statement goes through `pg.Client.prototype.query` (the pool's too); its
 * parameters, numbered there, are recorded as `?` again, so that a text reads as on SQLite.
 */
export function recordStatements() {
  let recording: string[] | undefined;
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, source: string) {
    const statement = prepare.call(this, source) as Statement;
    if (source === CLOCK_BOUND) return statement;
    for (const name of RUNS) {
      const method = statement[name] as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[name] = function (
        this: unknown,
        ...args: unknown[]
      ) {
        recording?.push(source);
        return method.apply(this, args);
      };
    }
    return statement;
  } as typeof prepare;

  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : (first as { text?: unknown } | null)?.text;
    if (recording && typeof text === 'string' && !AROUND.test(text)) {
      recording.push(text.replace(/\$\d+/g, '?'));
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;

  return {
    /** The statements run while `work` ran, in order. */
    async during(work: () => Promise<unknown>): Promise<string[]> {
      const ran: string[] = [];
      recording = ran;
      try {
        await work();
      } finally {
        recording = undefined;
      }
      return ran;
    },

    restore(): void {
      Database.prototype.prepare = prepare;
      pg.Client.prototype.query = query;
    },
  };
}
