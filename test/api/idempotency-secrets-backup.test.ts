import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTemporary, tempDir, unzip } from '../helpers/backups.ts';
import { json } from '../helpers/json.ts';
import { flaggedSecretRoutes, secretSender, secretsIn } from '../helpers/secret-answers.ts';
import { ADMIN_PASSWORD, createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * A backup holds none of the secrets that answers hand out once (an access token's secret, the
 * authenticator app's secret and backup codes) sent with an `Idempotency-Key`: the idempotency
 * table never keeps them (test/api/idempotency-secrets.test.ts), and so neither does a copy
 * of it. Backups copy the SQLite file: SQLite's own (SQLITE_ONLY in vitest.postgres.config.ts).
 */

let vault: TestVault;
let admin: string;
let cookie: string;
let password: string;
const { keys: sendable, send } = secretSender(() => ({ vault, cookie, password }));

/** Every row of the idempotency table of a SQLite file, as text, read from the file itself. */
function keptRows(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return JSON.stringify(db.prepare('SELECT * FROM idempotency_keys').all());
  } finally {
    db.close();
  }
}

const handedOut: string[] = [];

beforeAll(async () => {
  vault = createTestVault();
  await vault.createUser({ username: 'admin', password: ADMIN_PASSWORD, role: 'ADMIN' });
  admin = await vault.login('admin', ADMIN_PASSWORD);
  const sam = await vault.createUser({ username: 'sam' });
  password = sam.password;
  cookie = await vault.login('sam', password);
});
afterAll(async () => {
  await vault.close();
  removeTemporary();
});

describe('answers that hold a secret and Idempotency-Key', () => {
  it('a backup made after holds none of the secrets in its idempotency table', async () => {
    expect(sendable).toEqual(flaggedSecretRoutes);
    for (const key of flaggedSecretRoutes) {
      const res = await send(key, `secret-${key.replace(/\W+/g, '-')}`);
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      handedOut.push(...secretsIn(await json(res)));
    }
    expect(handedOut.length).toBeGreaterThan(10);
    const made = await vault.request('/api/backups', { method: 'POST', cookie: admin });
    expect(made.status).toBe(201);
    const name = (await json(made)).backup.name as string;
    const zip = await vault.request(`/api/backups/${name}`, { cookie: admin });
    const files = await unzip(Buffer.from(await zip.arrayBuffer()));
    const copy = path.join(tempDir(), 'vault.sqlite');
    fs.writeFileSync(copy, files.get('vault.sqlite')!);
    const rows = keptRows(copy);
    expect(rows).toContain('secret-POST-tokens');
    for (const secret of handedOut) expect(rows).not.toContain(secret);
  });
});
