import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { getLogger } from '@logtape/logtape';
import {
  sqlFor,
  type ChangeStamp,
  type Database,
  type RunResult,
  type SqlText,
  type Statement,
} from './database.ts';
import { numberedPlaceholders, valuesOf } from './postgres-placeholders.ts';

const logger = getLogger(['vault', 'db']);

let driver: typeof pg | undefined;

/**
 * The `pg` driver, loaded the first time a vault opens PostgreSQL: a vault on SQLite never
 * loads it (its memory and start-up stay as they were; test/process/loaded-on-first-use).
 */
function loadDriver(): typeof pg {
  if (driver) return driver;
  const require = createRequire(import.meta.url);
  driver = require('pg') as typeof pg;
  // bigint (int8) and numeric answer as JavaScript numbers, as SQLite's integers and reals do:
  // ids, counts and milliseconds stay far below 2^53.
  driver.types.setTypeParser(driver.types.builtins.INT8, Number);
  driver.types.setTypeParser(driver.types.builtins.NUMERIC, Number);
  return driver;
}

/**
 * Every transaction takes this lock before its work: transactions run one after another, on
 * every process, as they do on SQLite, so a transaction that reads and then writes sees no
 * other's write in between (docs/scaling.md, "Transactions"). Reads outside transactions run
 * side by side on the pool's connections.
 */
const TRANSACTION_LOCK = 7_561_756_108;

/** The channel on which each process says it wrote, for the others' read caches. */
const CHANGES_CHANNEL = 'vault_changes';

interface OpenTransaction {
  client: pg.PoolClient;
  savepoints: number;
  wrote: boolean;
  ended: boolean;
}

export interface PostgresOptions {
  /** Connections in this process's pool. */
  maxConnections?: number;
  /** Work that must be done before any statement runs (creating the database, migrations). */
  setUp?: (pool: pg.Pool) => Promise<void>;
}

const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * The Database interface (src/db/database.ts) on a PostgreSQL pool. Statements run on any free
 * connection, a transaction's on its own (followed through awaits with AsyncLocalStorage).
 * A statement's `?` and `@name` parameters are numbered once when it is prepared
 * (src/db/postgres-placeholders.ts), and it runs as a named prepared statement.
 */
export function postgresDatabase(
  url: string,
  options: PostgresOptions = {},
): Database & {
  ready: Promise<void>;
} {
  const pg = loadDriver();
  const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  pool.on('error', (error) => logger.warn('A database connection failed: {error}', { error }));
  const current = new AsyncLocalStorage<OpenTransaction>();
  const self = randomUUID();
  let ownWrites = 0;
  let othersWrites = 0;
  let notifyScheduled = false;
  /** The announcement under way, which close() waits for. */
  let announcing: Promise<unknown> = Promise.resolve();
  let listener: pg.Client | undefined;
  let closed = false;

  const ready = (async () => {
    await options.setUp?.(pool);
    listener = new pg.Client({ connectionString: url });
    listener.on('notification', ({ payload }) => {
      if (payload !== self) othersWrites++;
    });
    listener.on('error', (error) => logger.warn('The change listener failed: {error}', { error }));
    await listener.connect();
    await listener.query(`LISTEN ${CHANGES_CHANNEL}`);
  })();
  // A failure is reported to the first statement (and to whoever awaits `ready`).
  ready.catch(() => undefined);

  /** Tells other processes that this one wrote, once for a burst of writes. */
  const announce = () => {
    ownWrites++;
    if (notifyScheduled || closed) return;
    notifyScheduled = true;
    setImmediate(() => void sendAnnouncement());
  };
  const sendAnnouncement = () => {
    if (!notifyScheduled) return announcing;
    notifyScheduled = false;
    announcing = pool
      .query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, self])
      .catch((error: unknown) => logger.warn('Could not announce a write: {error}', { error }));
    return announcing;
  };

  const openTransaction = () => {
    const open = current.getStore();
    return open && !open.ended ? open : undefined;
  };

  async function query(config: pg.QueryConfig & { rowMode?: 'array' }) {
    await ready;
    const open = openTransaction();
    let result: pg.QueryResult;
    try {
      result = open ? await open.client.query(config) : await pool.query(config);
    } catch (error) {
      // Said with the statement it came from (never its values): the log then tells which.
      if (error instanceof Error) error.message += ` (in: ${config.text.slice(0, 300)})`;
      throw error;
    }
    if (WRITES.has(result.command)) {
      if (open) open.wrote = true;
      else announce();
    }
    return result;
  }

  function prepare<Row>(text: SqlText, plucked = false): Statement<Row> {
    const source = sqlFor(text, 'postgres');
    const layout = numberedPlaceholders(source);
    const name = `vault_${createHash('sha1').update(layout.text).digest('hex').slice(0, 24)}`;
    const config = (params: unknown[]) => ({
      name,
      text: layout.text,
      values: valuesOf(layout, params),
      ...(plucked ? { rowMode: 'array' as const } : {}),
    });
    const shape = (row: unknown) => (plucked ? (row as unknown[])[0] : row) as Row;
    return {
      async all(...params) {
        return (await query(config(params))).rows.map(shape);
      },
      async get(...params) {
        const { rows } = await query(config(params));
        return rows.length === 0 ? undefined : shape(rows[0]);
      },
      async run(...params): Promise<RunResult> {
        return { changes: (await query(config(params))).rowCount ?? 0 };
      },
      pluck<Value>() {
        return prepare<Value>(source, true);
      },
    };
  }

  async function nested<T>(open: OpenTransaction, work: () => Promise<T>): Promise<T> {
    const name = `vault_${++open.savepoints}`;
    await open.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      await open.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (error) {
      await open.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw error;
    }
  }

  const changes: ChangeStamp = {
    current: () => ownWrites + othersWrites,
    otherConnections: () => othersWrites,
  };

  return {
    engine: 'postgres',
    changes,
    ready,
    prepare: (text) => prepare(text),
    async exec(text) {
      await ready;
      const open = openTransaction();
      await (open ? open.client : pool).query(sqlFor(text, 'postgres'));
      if (open) open.wrote = true;
      else announce();
    },
    async transaction<T>(work: () => Promise<T>): Promise<T> {
      const open = openTransaction();
      if (open) return nested(open, work);
      await ready;
      const client = await pool.connect();
      const transaction: OpenTransaction = { client, savepoints: 0, wrote: false, ended: false };
      try {
        await client.query('BEGIN');
        await client.query(`SELECT pg_advisory_xact_lock(${TRANSACTION_LOCK})`);
        let result: T;
        try {
          result = await current.run(transaction, work);
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
        if (transaction.wrote) {
          await client.query(`SELECT pg_notify('${CHANGES_CHANNEL}', '${self}')`);
        }
        await client.query('COMMIT');
        if (transaction.wrote) ownWrites++;
        return result;
      } finally {
        transaction.ended = true;
        client.release();
      }
    },
    inTransaction: () => openTransaction() !== undefined,
    isClosed: () => closed,
    async close() {
      if (closed) return;
      // A write just made is still announced: a command that writes and ends at once (the
      // CLI) must be seen by the servers' read caches.
      await sendAnnouncement();
      closed = true;
      await ready.catch(() => undefined);
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}
