import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/app.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createContext, type ContextOptions } from '../../src/context.ts';
import type { Role, UserRow } from '../../src/db/schema/index.ts';
import { beverageResponseSchema, type Beverage } from '../../contract/beverages.ts';
import { TEST_RSA_KEY_BITS } from './test-keys.ts';
import { testDatabase } from './postgres.ts';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'correct horse battery staple';

export interface TestUserInput {
  username: string;
  password?: string;
  role?: Role;
  fullName?: string;
  email?: string;
  activityPubEnabled?: boolean;
}

/** A temporary data directory with its config. */
export function tempConfig(env: Record<string, string> = {}): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-test-'));
  return loadConfig({
    VAULT_DATA_DIR: dataDir,
    VAULT_ADMIN_USERNAME: ADMIN_USERNAME,
    VAULT_ADMIN_PASSWORD: ADMIN_PASSWORD,
    VAULT_RSA_KEY_BITS: TEST_RSA_KEY_BITS, // see test/helpers/test-keys.ts
    ...env,
  });
}

/**
 * The real app on a temporary SQLite file, driven with app.request(). Users are inserted
 * directly (with a real password hash) to keep tests fast.
 */
export function createTestVault(
  options: ContextOptions & { origin?: string; env?: Record<string, string> } = {},
) {
  const postgres = testDatabase();
  const config = tempConfig({
    ...(options.origin ? { VAULT_ORIGIN: options.origin } : {}),
    ...(postgres ? { VAULT_DATABASE_URL: postgres.url } : {}),
    ...options.env,
  });
  const ctx = createContext(config, {
    ...options,
    ...(postgres ? { beforeMigrating: postgres.create } : {}),
  });
  const app = createApp(ctx);
  const origin = config.origin;

  async function createUser(input: TestUserInput): Promise<UserRow & { password: string }> {
    const password = input.password ?? `${input.username}-password`;
    const row = await ctx.users.insert({
      username: input.username,
      fullName: input.fullName ?? input.username.replace(/^./, (ch) => ch.toUpperCase()),
      email: input.email ?? `${input.username}@example.com`,
      role: input.role ?? 'USER',
      passwordHash: await hashPassword(password),
    });
    const updated = input.activityPubEnabled
      ? (await ctx.users.update(row.id, { activityPubEnabled: true }))!
      : row;
    return { ...updated, password };
  }

  /** A request to the app as a browser on the vault's own origin would send it. */
  function request(pathname: string, init: RequestInit & { cookie?: string } = {}) {
    const headers = new Headers(init.headers);
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD' && !headers.has('origin')) {
      headers.set('origin', origin);
    }
    if (init.cookie) headers.set('cookie', init.cookie);
    return app.request(new URL(pathname, origin).toString(), { ...init, headers });
  }

  function postJson(pathname: string, body: unknown, cookie?: string, method = 'POST') {
    return request(pathname, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(cookie ? { cookie } : {}),
    });
  }

  /** Logs an entry as the log form sends it (a multipart POST); the new entry. */
  async function logEntry(
    cookie: string,
    fields: Record<string, string>,
    photo?: Uint8Array,
  ): Promise<Beverage> {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    if (photo) body.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }));
    const res = await request('/api/beverages', { method: 'POST', body, cookie });
    if (res.status !== 201) throw new Error(`logging failed: ${res.status} ${await res.text()}`);
    return beverageResponseSchema.parse(await res.json()).beverage;
  }

  /** Signs in and returns the session cookie ("name=value"). */
  async function login(username: string, password: string): Promise<string> {
    const res = await postJson('/api/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    return sessionCookieFrom(res);
  }

  return {
    app,
    ctx,
    config,
    origin,
    createUser,
    request,
    postJson,
    logEntry,
    login,
    async close() {
      await ctx.close();
      await postgres?.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export type TestVault = ReturnType<typeof createTestVault>;

/** "name=value" of the session cookie a response sets. */
export function sessionCookieFrom(res: Response): string {
  const header = res.headers.getSetCookie().find((c) => c.includes('vault_session='));
  if (!header) throw new Error('no session cookie in response');
  return header.split(';')[0]!;
}
