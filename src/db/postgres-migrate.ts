import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Migrator from 'drizzle-orm/migrator';
import type pg from 'pg';

const require = createRequire(
  typeof import.meta.url === 'string' ? import.meta.url : `file://${process.cwd()}/package.json`,
);
const { readMigrationFiles } = require('drizzle-orm/migrator') as typeof Migrator;

/** The SQL drizzle-kit writes from src/db/postgres-tables.ts, plus the hand-written parts. */
export const POSTGRES_MIGRATIONS_DIR = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  'migrations-postgres',
);

/** Held while migrating: processes that start together migrate one after the other. */
const MIGRATION_LOCK = 7_561_756_109;

/**
 * Applies the migrations a PostgreSQL database lacks, in one transaction, recording them as
 * drizzle-kit does (drizzle.__drizzle_migrations), so `drizzle-kit migrate` would agree.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: POSTGRES_MIGRATIONS_DIR });
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
    await client.query(
      `CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations
         (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
    );
    const last = await client.query<{ created_at: string | number }>(
      'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1',
    );
    const appliedUpTo = last.rows[0] ? Number(last.rows[0].created_at) : -Infinity;
    const pending = migrations.filter((migration) => migration.folderMillis > appliedUpTo);
    if (pending.length === 0) return;
    await client.query('BEGIN');
    try {
      for (const migration of pending) {
        for (const statement of migration.sql) {
          if (statement.trim() !== '') await client.query(statement);
        }
        await client.query(
          'INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)',
          [migration.hash, migration.folderMillis],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
