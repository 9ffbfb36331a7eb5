import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processDatabase, root, startVaultProcess } from '../helpers/process.ts';
import { testEngine } from '../helpers/postgres.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-process-'));
const database = await processDatabase(dataDir);
afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The libraries a start leaves for their first use (docs/configuration.md, "Memory"): loading
 * one of them at start costs start time and idle memory (Fedify alone about 450 ms and 50 MB).
 */
const ON_FIRST_USE = [
  '@fedify/fedify',
  '@fedify/vocab',
  'sharp',
  '@simplewebauthn/server',
  'qrcode',
  '@zxcvbn-ts/core',
  'yauzl',
  'yazl',
  'csv-parse',
  'csv-stringify',
];

/** PostgreSQL's driver, which a vault on SQLite never loads. */
const NOT_ON_SQLITE = testEngine() === 'sqlite' ? ['pg'] : [];

const loadedPackages = (output: string) =>
  [...output.matchAll(/^package loaded: (\S+)$/gm)].map((match) => match[1]!);

describe('a started vault', () => {
  it('has loaded none of the libraries kept for their first use after serving the API and the client, and loads Fedify with the first WebFinger request', async () => {
    const hook = path.join(root, 'test', 'helpers', 'packages-loaded.ts');
    const { child, url, output, exited } = await startVaultProcess({
      VAULT_DATA_DIR: dataDir,
      VAULT_ADMIN_PASSWORD: '',
      ...database.env,
      NODE_OPTIONS: `--import=${hook}`,
    });
    try {
      for (const address of ['/api/auth/me', '/', '/users/admin', '/cellar']) {
        const answer = await fetch(new URL(address, url), { headers: { Accept: 'text/html' } });
        await answer.arrayBuffer();
      }
      const loaded = loadedPackages(output());
      // The hook works: what every request needs is there.
      expect(loaded).toEqual(expect.arrayContaining(['hono', 'better-sqlite3', 'drizzle-orm']));
      expect(loaded.filter((name) => [...ON_FIRST_USE, ...NOT_ON_SQLITE].includes(name))).toEqual(
        [],
      );

      const host = new URL(url).host;
      await fetch(new URL(`/.well-known/webfinger?resource=acct:admin@${host}`, url));
      await expect
        .poll(() => loadedPackages(output()), { timeout: 30_000 })
        .toContain('@fedify/fedify');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
