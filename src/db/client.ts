import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config.ts';
import { drizzle, migrate } from './orm.ts';
import * as schema from './schema/index.ts';
import type { Transaction } from './transaction.ts';
import type { Database as VaultDatabase, Engine } from './database.ts';
import { postgresDatabase, type PostgresOptions } from './postgres-database.ts';
import { migratePostgres } from './postgres-migrate.ts';
import { sqliteDatabase } from './sqlite-database.ts';
import { countWrites } from './write-counter.ts';

export interface DatabaseHandle {
  engine: Engine;
  /** The way every repository reaches the database, whatever the engine (src/db/database.ts). */
  database: VaultDatabase;
  /**
   * The SQLite connection, for what only SQLite has (the checkpointer, the file's backups), or
   * null on PostgreSQL.
   */
  sqlite: Database.Database | null;
  /** One transaction for writes that span aggregates (src/db/transaction.ts). */
  transaction: Transaction;
  /** Settles once the database is open and migrated: at once on SQLite. */
  ready: Promise<void>;
  close(): void | Promise<void>;
}

/** The embedded default: one SQLite file. */
export interface SqliteHandle extends DatabaseHandle {
  engine: 'sqlite';
  sqlite: Database.Database;
  close(): void;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '..', '..', 'migrations');

/** Opens (creating if needed) the SQLite file, sets pragmas and applies pending migrations. */
export function openDatabase(file: string): SqliteHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  countWrites(sqlite); // before anything prepares a statement (src/db/write-counter.ts)
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  migrate(drizzle(sqlite, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  const database = sqliteDatabase(sqlite);
  return {
    engine: 'sqlite',
    database,
    sqlite,
    transaction: (work) => database.transaction(work),
    ready: Promise.resolve(),
    close: () => {
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * The database the configuration names: PostgreSQL when VAULT_DATABASE_URL is set, else the
 * SQLite file in the data folder. PostgreSQL opens in the background (`ready`): statements wait
 * for it, and for its migrations, which processes starting together apply one at a time.
 */
export function openConfiguredDatabase(
  config: Pick<Config, 'databasePath' | 'databaseUrl' | 'databasePoolSize'>,
  options: { beforeMigrating?: () => Promise<void> } = {},
): DatabaseHandle {
  if (config.databaseUrl === null) return openDatabase(config.databasePath);
  const postgres: PostgresOptions = {
    maxConnections: config.databasePoolSize,
    setUp: async (pool) => {
      await options.beforeMigrating?.();
      await migratePostgres(pool);
    },
  };
  const database = postgresDatabase(config.databaseUrl, postgres);
  return {
    engine: 'postgres',
    database,
    sqlite: null,
    transaction: (work) => database.transaction(work),
    ready: database.ready,
    close: () => database.close(),
  };
}
