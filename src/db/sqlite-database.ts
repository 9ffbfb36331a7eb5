import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite from 'better-sqlite3';
import { sqlFor, type Database, type RunResult, type Statement } from './database.ts';
import { sqliteChangeStamp } from './sqlite-change-stamp.ts';

/** A transaction being run: its savepoints, and a promise settled when it ends. */
interface OpenTransaction {
  savepoints: number;
  ended: Promise<void>;
}

/**
 * The Database interface (src/db/database.ts) on one better-sqlite3 connection.
 *
 * better-sqlite3 runs each statement synchronously: a statement is done when its call returns,
 * and the promise only carries the answer. A transaction is the exception, as its work awaits:
 * while one is open, a statement from outside it (another request's) waits until it ends,
 * so nothing joins a transaction by accident or reads its writes before they commit, and
 * transactions run one after another. The transaction a statement belongs to is followed
 * through its awaits with AsyncLocalStorage.
 */
export function sqliteDatabase(
  sqlite: BetterSqlite.Database,
  options: { now?: () => number } = {},
): Database {
  const current = new AsyncLocalStorage<OpenTransaction>();
  let open: OpenTransaction | undefined;

  // Whether a transaction other than the caller's is open. Callers wait in a loop and run
  // their statement in the same turn as the last check, so no transaction opens in between.
  const blocked = () => open !== undefined && current.getStore() !== open;

  function wrap<Row>(statement: BetterSqlite.Statement, plucked: boolean): Statement<Row> {
    if (plucked) statement.pluck();
    return {
      async all(...params) {
        while (blocked()) await open!.ended;
        return statement.all(...params) as Row[];
      },
      async get(...params) {
        while (blocked()) await open!.ended;
        return statement.get(...params) as Row | undefined;
      },
      async run(...params): Promise<RunResult> {
        while (blocked()) await open!.ended;
        const result = statement.run(...params);
        return { changes: result.changes };
      },
      pluck<Value>() {
        return wrap<Value>(sqlite.prepare(statement.source), true);
      },
    };
  }

  async function nested<T>(transaction: OpenTransaction, work: () => Promise<T>): Promise<T> {
    const name = `vault_${++transaction.savepoints}`;
    sqlite.exec(`SAVEPOINT ${name}`);
    try {
      const result = await work();
      sqlite.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      sqlite.exec(`ROLLBACK TO ${name}`);
      sqlite.exec(`RELEASE ${name}`);
      throw error;
    }
  }

  return {
    engine: 'sqlite',
    changes: sqliteChangeStamp(sqlite, options.now),
    prepare<Row>(text: Parameters<Database['prepare']>[0]) {
      return wrap<Row>(sqlite.prepare(sqlFor(text, 'sqlite')), false);
    },
    async exec(text) {
      while (blocked()) await open!.ended;
      sqlite.exec(sqlFor(text, 'sqlite'));
    },
    async transaction<T>(work: () => Promise<T>): Promise<T> {
      const mine = current.getStore();
      if (mine && mine === open) return nested(mine, work);
      while (open) await open.ended;
      let end!: () => void;
      const transaction: OpenTransaction = {
        savepoints: 0,
        ended: new Promise<void>((resolve) => (end = resolve)),
      };
      open = transaction;
      try {
        sqlite.exec('BEGIN IMMEDIATE');
        try {
          const result = await current.run(transaction, work);
          sqlite.exec('COMMIT');
          return result;
        } catch (error) {
          if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
          throw error;
        }
      } finally {
        open = undefined;
        end();
      }
    },
    inTransaction() {
      return open !== undefined && current.getStore() === open;
    },
    isClosed: () => !sqlite.open,
    async close() {
      if (sqlite.open) sqlite.close();
    },
  };
}
