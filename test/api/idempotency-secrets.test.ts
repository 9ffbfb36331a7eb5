import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiRoutes } from '../../contract/routes/index.ts';
import type { RouteDef } from '../../contract/routes/route.ts';
import { openDatabase } from '../../src/db/client.ts';
import { carriesPasswords, SECRET_NOT_KEPT } from '../../src/http/idempotency.ts';
import { removeTemporary, tempDir } from '../helpers/backups.ts';
import { json } from '../helpers/json.ts';
import {
  flaggedSecretRoutes,
  SECRET_FIELD,
  secretSender,
  secretsIn,
} from '../helpers/secret-answers.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Answers that hand out a secret shown once (an access token's secret, the authenticator app's
 * secret and backup codes) are never kept for an `Idempotency-Key` replay: the key sent again
 * answers 409 without the secret, and the idempotency table does not hold it (nor does a backup:
 * test/api/idempotency-secrets-backup.test.ts).
 */

type JsonSchema = { [key: string]: unknown };

/** Every property name anywhere in a JSON Schema. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) propertyNames(item, into);
  else if (schema && typeof schema === 'object') {
    const properties = (schema as JsonSchema).properties;
    if (properties && typeof properties === 'object') {
      for (const name of Object.keys(properties)) into.add(name);
    }
    for (const value of Object.values(schema)) propertyNames(value, into);
  }
  return into;
}

const routes = Object.entries(apiRoutes as Record<string, RouteDef>);

/** The routes whose answer schema has a field named like a secret. */
const answeringSecrets = routes
  .filter(([, def]) => {
    if (!def.answer) return false;
    const schema = z.toJSONSchema(def.answer, { io: 'output', unrepresentable: 'any' });
    return [...propertyNames(schema)].some((name) => SECRET_FIELD.test(name));
  })
  .map(([key]) => key)
  .sort();
const flagged = flaggedSecretRoutes;

/** The routes whose JSON body or form has a field named like a password. */
const takingPasswords = routes
  .filter(([, def]) =>
    [def.json, def.form].some((body) => {
      if (!body) return false;
      const schema = z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' });
      return [...propertyNames(schema)].some((name) => /password|passphrase/i.test(name));
    }),
  )
  .map(([key, def]) => ({ key, def }));

let vault: TestVault;
let cookie: string;
let password: string;

const { keys: sendable, send } = secretSender(() => ({ vault, cookie, password }));

/** Every row of the vault's idempotency table, as text, read from the database (no cache). */
async function keptRows(): Promise<string> {
  return JSON.stringify(
    await vault.ctx.database.database.prepare('SELECT * FROM idempotency_keys').all(),
  );
}

beforeAll(async () => {
  vault = createTestVault();
  const sam = await vault.createUser({ username: 'sam' });
  password = sam.password;
  cookie = await vault.login('sam', password);
});
afterAll(async () => {
  await vault.close();
  removeTemporary();
});

describe('answers that hold a secret and Idempotency-Key', () => {
  it('the route table flags exactly the routes whose answer has a secret field', () => {
    expect(flagged).toEqual(['POST /tokens', 'POST /totp/setup']);
    expect(answeringSecrets).toEqual(flagged);
    expect(sendable).toEqual(flagged);
  });

  it.each(flagged)(
    '%s sent again with its key answers 409 without the secret, and the table keeps none',
    async (key) => {
      const idempotencyKey = `secret-${key.replace(/\W+/g, '-')}`;
      const first = await send(key, idempotencyKey);
      expect(first.status, await first.clone().text()).toBeLessThan(300);
      const secrets = secretsIn(await json(first));
      expect(secrets.length).toBeGreaterThan(0);

      const again = await send(key, idempotencyKey);
      expect(again.status).toBe(409);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const text = await again.text();
      expect(JSON.parse(text)).toEqual({ message: SECRET_NOT_KEPT });
      for (const secret of secrets) expect(text).not.toContain(secret);

      const rows = await keptRows();
      expect(rows).toContain(idempotencyKey);
      for (const secret of secrets) expect(rows).not.toContain(secret);
    },
  );

  it('POST /tokens sent again with its key makes no second token', async () => {
    const listed = await json(await vault.request('/api/tokens', { cookie }));
    expect(listed.tokens.map((t: { name: string }) => t.name)).toEqual(['Backup script']);
  });
});

describe('requests that carry a password and Idempotency-Key', () => {
  it('every route whose body takes a password is public (keys unused) or hashed slowly', () => {
    expect(takingPasswords.map((r) => r.key)).toEqual(
      expect.arrayContaining(['POST /totp/setup', 'PATCH /users/me', 'POST /users']),
    );
    for (const { key, def } of takingPasswords) {
      expect(def.access === 'public' || carriesPasswords(def), key).toBe(true);
    }
  });

  it('the table keeps no plain SHA-256 of a request holding a password, and it still replays', async () => {
    const body = JSON.stringify({ password });
    const send = () =>
      vault.request('/api/totp/setup', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'password-hash' },
        body,
        cookie,
      });
    expect((await send()).status).toBe(200);
    const again = await send();
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ message: SECRET_NOT_KEPT });
    const plain = createHash('sha256').update('POST /api/totp/setup\n').update(body).digest('hex');
    const stored = await vault.ctx.database.database
      .prepare("SELECT request_hash FROM idempotency_keys WHERE key = 'password-hash'")
      .pluck()
      .get();
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toBe(plain);
  });

  it('a profile change sent again with its key answers the same, replayed', async () => {
    const change = () => {
      const form = new FormData();
      form.append('fullName', 'Sam Sommelier');
      return vault.request('/api/users/me', {
        method: 'PATCH',
        headers: { 'idempotency-key': 'profile-1' },
        body: form,
        cookie,
      });
    };
    const first = await change();
    expect(first.status).toBe(200);
    const again = await change();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(await first.text());
  });
});

const MIGRATION_0021 = path.join(
  import.meta.dirname,
  '../../migrations/0021_drop_kept_secret_answers.sql',
);

describe('answers with secrets kept by an older version', () => {
  it('are deleted by the migration, and other kept answers stay', async () => {
    const file = path.join(tempDir(), 'vault.sqlite');
    const db = openDatabase(file);
    const sqlite = db.sqlite;
    sqlite
      .prepare(
        "INSERT INTO users (username, full_name, email, password_hash) VALUES ('olga', 'Olga', 'olga@example.com', 'x')",
      )
      .run();
    const kept = sqlite.prepare(
      'INSERT INTO idempotency_keys (user_id, key, request_hash, status, body, created_at) VALUES (1, ?, ?, ?, ?, ?)',
    );
    const now = Date.now();
    kept.run('token', 'a', 201, '{"token":{"id":1},"secret":"vault_pat_abc"}', now);
    kept.run('totp', 'b', 200, '{"secret":"JBSWY3DP","backupCodes":["1234-5678"]}', now);
    kept.run('comment', 'c', 201, '{"comment":{"content":"a secret: \\"secret\\":"}}', now);
    kept.run('delete', 'd', 204, null, now);
    // The migration's own statement, as an older vault runs it on its next open.
    sqlite.exec(fs.readFileSync(MIGRATION_0021, 'utf8'));
    const left = sqlite.prepare('SELECT key FROM idempotency_keys ORDER BY key').pluck().all();
    db.close();
    expect(left).toEqual(['comment', 'delete']);
  });
});
