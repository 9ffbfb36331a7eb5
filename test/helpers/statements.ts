import Database from 'better-sqlite3';

type Statement = ReturnType<Database.Database['prepare']>;
const RUNS = ['run', 'get', 'all', 'iterate'] as const;

/**
 * The read caches ask it at most every 250 ms of the wall clock (src/db/read-cache.ts): how
 * often it runs says nothing about the request it runs in, so it is not recorded.
 */
const CLOCK_BOUND = 'PRAGMA data_version';

/**
 * Records the statements that connections opened from now on run (each run of `run`, `get`,
 * `all` or `iterate`, by its SQL), while `during` waits for something. Every statement of the
 * app is prepared through `Database.prototype.prepare` (drizzle's too, and the write counter of
 * src/db/write-counter.ts wraps it), so call this before the vault is created, and `restore`
 * after it is closed: test files share their worker (vitest.config.ts, isolate: false).
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
    },
  };
}
