import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:postgres`: the tests that touch the database, on a private PostgreSQL
 * (test/global-setup.ts), and those that compare the engines (`*.postgres.test.ts`). Left out:
 * what never reaches the database (the client, the lint of the code), the browser tests, which
 * drive the same API through a browser (they run on SQLite), and what is SQLite's own (its
 * file, its checkpoints, its backups), listed below.
 */
export const SQLITE_ONLY = [
  // SQLite's own: its checkpoints, its way of running transactions.
  'test/db/checkpointer.test.ts',
  'test/db/sqlite-database.test.ts',
  // SQLite's upgrade of a vault that had entries before the tallies (PostgreSQL has its
  // tallies from its first migration).
  'test/db/stats-tallies-migration.test.ts',
  // Backups and restore copy the SQLite file: not built on PostgreSQL yet (docs/scaling.md).
  'test/api/backups.test.ts',
  'test/api/backups-restore.test.ts',
  'test/api/idempotency-secrets-backup.test.ts',
  'test/process/backup-under-load.test.ts',
  'test/media/deletion-hold.test.ts',
];

const merged = mergeConfig(
  base,
  defineConfig({ test: { env: { VAULT_TEST_DATABASE: 'postgres' } } }),
);
merged.test!.exclude = [
  ...configDefaults.exclude,
  'test/browser/**',
  'test/web/**',
  'test/lint/**',
  ...SQLITE_ONLY,
];
export default merged;
