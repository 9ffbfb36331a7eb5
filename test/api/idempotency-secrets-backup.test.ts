import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../contract/routes/index.ts';
import type { RouteDef } from '../../contract/routes/route.ts';
import { removeTemporary, tempDir, unzip } from '../helpers/backups.ts';
import { json } from '../helpers/json.ts';
import { ADMIN_PASSWORD, createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * A backup holds none of the secrets that answers hand out once (an access token's secret, the
 * authenticator app's secret and backup codes) sent with an `Idempotency-Key`: the idempotency
 * table never keeps them (test/api/idempotency-secrets.test.ts), and so neither does a copy
 * of it. Backups copy the SQLite file: SQLite's own (SQLITE_ONLY in vitest.postgres.config.ts).
 */

/** Field names that say an answer holds a secret (as in test/api/idempotency-secrets.test.ts). */
const SECRET_FIELD =
  /secret|password|passphrase|backup.?codes?|recovery|private.?key|otp.?auth|qr.?code/i;

/** The routes whose answer the route table flags as holding a secret. */
const flagged = Object.entries(apiRoutes as Record<string, RouteDef>)
  .filter(([, def]) => def.secretAnswer)
  .map(([key]) => key)
  .sort();

/** Every string of an answer's secret fields (a backup code list is one string each). */
function secretsIn(value: unknown, into: string[] = [], inSecret = false): string[] {
  if (typeof value === 'string') {
    if (inSecret) into.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) secretsIn(item, into, inSecret);
  } else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      secretsIn(item, into, inSecret || SECRET_FIELD.test(name));
    }
  }
  return into;
}

let vault: TestVault;
let admin: string;
let cookie: string;
let password: string;

/** How to call each route that answers a secret (a new route here fails the test until added). */
const SENDS: Record<string, () => { path: string; body: unknown }> = {
  'POST /tokens': () => ({ path: '/api/tokens', body: { name: 'Backup script', scope: 'read' } }),
  'POST /totp/setup': () => ({ path: '/api/totp/setup', body: { password } }),
};

function send(key: string, idempotencyKey: string) {
  const { path: url, body } = SENDS[key]!();
  return vault.request(url, {
    method: key.slice(0, key.indexOf(' ')),
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
    cookie,
  });
}

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
    expect(Object.keys(SENDS).sort()).toEqual(flagged);
    for (const key of flagged) {
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
