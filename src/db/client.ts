import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, migrate } from './orm.ts';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import * as schema from './schema/index.ts';
import type { Transaction } from './transaction.ts';
import type { Database as VaultDatabase } from './database.ts';
import { sqliteDatabase } from './sqlite-database.ts';
import { countWrites } from './write-counter.ts';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export interface DatabaseHandle {
  /** The way every repository reaches the database, whatever the engine (src/db/database.ts). */
  database: VaultDatabase;
  /** Drizzle, for typed queries. */
  db: Db;
  /** The SQLite connection, for what only SQLite has: backups, checkpoints, change stamps. */
  sqlite: Database.Database;
  /** One transaction for writes that span aggregates (src/db/transaction.ts). */
  transaction: Transaction;
  close(): void;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '..', '..', 'migrations');

/** Opens (creating if needed) the SQLite file, sets pragmas and applies pending migrations. */
export function openDatabase(file: string): DatabaseHandle {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  countWrites(sqlite); // before anything prepares a statement (src/db/write-counter.ts)
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  const database = sqliteDatabase(sqlite);
  return {
    database,
    db,
    sqlite,
    transaction: (work) => database.transaction(work),
    close: () => {
      if (sqlite.open) sqlite.close();
    },
  };
}
