import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { CHROMIUM_PATH, launchChromiumServer } from './helpers/chromium.ts';
import { startPostgresCluster } from './helpers/postgres-cluster.ts';
import { TEMPLATE_DATABASE } from './helpers/postgres.ts';
import { migratePostgres } from '../src/db/postgres-migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's one Chromium listens ('' when it is not installed). */
    chromiumEndpoint: string;
    /**
     * The private PostgreSQL's maintenance database when the run is on PostgreSQL
     * (VAULT_TEST_DATABASE=postgres), else ''.
     */
    postgresUrl: string;
  }
}

/**
 * Builds the client once, so browser tests run against what `npm start` serves, and starts one
 * Chromium that every browser test file connects to (a launch per file cost about half a second
 * of the two cores each time). Without Chromium the browser tests fail, saying how to install it.
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '..');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-web-if-needed.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  const chromium = fs.existsSync(CHROMIUM_PATH) ? await launchChromiumServer() : undefined;
  project.provide('chromiumEndpoint', chromium?.wsEndpoint() ?? '');
  const postgres =
    (project.config.env?.VAULT_TEST_DATABASE ?? process.env.VAULT_TEST_DATABASE) === 'postgres'
      ? await startPostgresCluster()
      : undefined;
  if (postgres) {
    // Every vault's database is a copy of this one, migrated once.
    const maintenance = new pg.Pool({ connectionString: postgres.url, max: 1 });
    await maintenance.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    await maintenance.end();
    const template = new URL(postgres.url);
    template.pathname = `/${TEMPLATE_DATABASE}`;
    const pool = new pg.Pool({ connectionString: template.toString(), max: 1 });
    await migratePostgres(pool);
    await pool.end();
  }
  project.provide('postgresUrl', postgres?.url ?? '');
  return async () => {
    await chromium?.close();
    await postgres?.stop();
  };
}
