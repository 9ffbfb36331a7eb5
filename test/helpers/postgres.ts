import { inject } from 'vitest';
import pg from 'pg';

/**
 * The engine the tests run on: PostgreSQL when the run was started with
 * VAULT_TEST_DATABASE=postgres (`npm run test:postgres`), which starts a private cluster
 * (test/global-setup.ts, test/helpers/postgres-cluster.ts); SQLite otherwise.
 */
export function testEngine(): 'sqlite' | 'postgres' {
  return inject('postgresUrl') ? 'postgres' : 'sqlite';
}

/** The database a vault gets on PostgreSQL, one per vault. */
export interface TestDatabase {
  url: string;
  /** Makes it, a copy of the migrated template (fast: no migration runs). */
  create(): Promise<void>;
  /** Drops it, whoever is still connected. */
  drop(): Promise<void>;
}

export const TEMPLATE_DATABASE = 'vault_template';
let made = 0;

async function onMaintenance(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new database for one vault, or undefined when the tests run on SQLite. */
export function testDatabase(): TestDatabase | undefined {
  const maintenance = inject('postgresUrl');
  if (!maintenance) return undefined;
  const name = `vault_${process.pid}_${++made}`;
  const url = new URL(maintenance);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    create: () =>
      onMaintenance(maintenance, `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`),
    drop: () => onMaintenance(maintenance, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
