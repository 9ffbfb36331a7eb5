import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/sessions.ts';
import {
  ADMIN_PASSWORD,
  createTestVault,
  sessionCookieFrom,
  type TestVault,
} from '../helpers/vault.ts';
import { json } from '../helpers/json.ts';

let vault: TestVault;
let alice: Awaited<ReturnType<TestVault['createUser']>>;

beforeAll(async () => {
  vault = createTestVault({
    throttleLimits: { perAccount: 3, perAddress: 100, windowMs: 60_000 },
  });
  await vault.ctx.userAdmin.create({
    username: 'admin',
    fullName: 'Vault Admin',
    email: 'admin@localhost',
    password: ADMIN_PASSWORD,
    role: 'ADMIN',
  });
  alice = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
});
afterAll(() => vault.close());

const tokenOf = (cookie: string) => cookie.split('=')[1]!;

describe('signing in', () => {
  it('returns the user and an empty credential list for the right password', async () => {
    const res = await vault.postJson('/api/auth/login', {
      username: 'alice',
      password: alice.password,
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.credentials).toEqual([]);
    expect(body.user).toMatchObject({
      id: alice.id,
      username: 'alice',
      fullName: 'Alice Archer',
      email: 'alice@example.com',
      role: 'USER',
      bio: '',
      avatarPath: null,
      webauthnEnabled: false,
      totpEnabled: false,
      activityPubEnabled: false,
      activityPubHandle: null,
      activityPubActorUrl: null,
    });
    expect(new Date(body.user.createdAt).toISOString()).toBe(body.user.createdAt);
    expect(body.user).not.toHaveProperty('passwordHash');
  });

  it('accepts the username in any letter case', async () => {
    const res = await vault.postJson('/api/auth/login', {
      username: ' Alice ',
      password: alice.password,
    });
    expect(res.status).toBe(200);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie on path / that is not Secure over http', async () => {
    const res = await vault.postJson('/api/auth/login', {
      username: 'alice',
      password: alice.password,
    });
    const header = res.headers.getSetCookie().find((c) => c.startsWith('vault_session='))!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    expect(header).toMatch(/Path=\//);
    expect(header).toMatch(/Max-Age=\d+/);
    expect(header).not.toMatch(/Secure/i);
  });

  it('stores only a hash of the session token', async () => {
    const cookie = await vault.login('alice', alice.password);
    const token = tokenOf(cookie);
    const rows = (await vault.ctx.database.database
      .prepare('select id_hash from sessions')
      .all()) as { id_hash: string }[];
    expect(rows.some((r) => r.id_hash === token)).toBe(false);
    expect(rows.some((r) => r.id_hash === hashToken(token))).toBe(true);
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const wrong = await vault.postJson('/api/auth/login', {
      username: 'admin',
      password: 'not-the-password',
    });
    const unknown = await vault.postJson('/api/auth/login', {
      username: 'nobody',
      password: 'whatever1',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await json(wrong)).toEqual({ message: 'Invalid username or password' });
    expect(await json(unknown)).toEqual({ message: 'Invalid username or password' });
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('rotates the session at login: the session the browser had is ended', async () => {
    const first = await vault.login('alice', alice.password);
    const res = await vault.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'alice', password: alice.password }),
      cookie: first,
    });
    const second = sessionCookieFrom(res);
    expect(second).not.toBe(first);
    expect((await vault.request('/api/auth/me', { cookie: first })).status).toBe(401);
    expect((await vault.request('/api/auth/me', { cookie: second })).status).toBe(200);
  });
});

describe('the current user', () => {
  it('is 401 with a message when signed out', async () => {
    const res = await vault.request('/api/auth/me');
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: 'You need to sign in first.' });
  });

  it('is the signed-in user with a session cookie', async () => {
    const cookie = await vault.login('alice', alice.password);
    const res = await vault.request('/api/auth/me', { cookie });
    expect(res.status).toBe(200);
    expect((await json(res)).user.username).toBe('alice');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is 401 for a made-up session cookie, which is cleared', async () => {
    const res = await vault.request('/api/auth/me', { cookie: 'vault_session=forged-token' });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().join()).toMatch(/vault_session=;/);
  });
});

describe('signing out', () => {
  it('ends the session on the server and clears the cookie', async () => {
    const cookie = await vault.login('alice', alice.password);
    const res = await vault.request('/api/auth/logout', { method: 'POST', cookie });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie().join()).toMatch(/vault_session=;/);
    expect((await vault.request('/api/auth/me', { cookie })).status).toBe(401);
    const stored = (await vault.ctx.database.database
      .prepare('select count(*) n from sessions where id_hash = ?')
      .get(hashToken(tokenOf(cookie)))) as { n: number };
    expect(stored.n).toBe(0);
  });
});

describe('session expiry', () => {
  it('ends a session after the idle timeout and after the absolute lifetime', async () => {
    let now = Date.now();
    const clocked = createTestVault({
      now: () => now,
      env: { VAULT_SESSION_IDLE_HOURS: '1', VAULT_SESSION_MAX_HOURS: '3' },
    });
    try {
      const bob = await clocked.createUser({ username: 'bob' });
      const idle = await clocked.login('bob', bob.password);
      now += 61 * 60_000;
      expect((await clocked.request('/api/auth/me', { cookie: idle })).status).toBe(401);

      const active = await clocked.login('bob', bob.password);
      for (let i = 0; i < 4; i++) {
        now += 50 * 60_000;
        const status = (await clocked.request('/api/auth/me', { cookie: active })).status;
        expect(status).toBe(i < 3 ? 200 : 401);
      }
    } finally {
      await clocked.close();
    }
  });
});

describe('throttling', () => {
  it('answers 429 with a clear message after repeated failures for one account', async () => {
    const carol = await vault.createUser({ username: 'carol' });
    for (let i = 0; i < 3; i++) {
      const res = await vault.postJson('/api/auth/login', {
        username: 'carol',
        password: 'wrong-password',
      });
      expect(res.status).toBe(401);
    }
    const blocked = await vault.postJson('/api/auth/login', {
      username: 'carol',
      password: carol.password,
    });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await json(blocked)).message).toMatch(
      /^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/,
    );
    // Another account from the same address is not affected.
    const other = await vault.postJson('/api/auth/login', {
      username: 'alice',
      password: alice.password,
    });
    expect(other.status).toBe(200);
  });

  it('throttles one address trying many accounts', async () => {
    const strict = createTestVault({
      throttleLimits: { perAccount: 100, perAddress: 2, windowMs: 60_000 },
    });
    try {
      const dave = await strict.createUser({ username: 'dave' });
      for (const name of ['x1', 'x2']) {
        expect(
          (await strict.postJson('/api/auth/login', { username: name, password: 'nope-nope' }))
            .status,
        ).toBe(401);
      }
      const res = await strict.postJson('/api/auth/login', {
        username: 'dave',
        password: dave.password,
      });
      expect(res.status).toBe(429);
    } finally {
      await strict.close();
    }
  });
});

describe('cross-site protection', () => {
  it('refuses a state-changing request from another origin', async () => {
    const res = await vault.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ username: 'alice', password: alice.password }),
    });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ message: 'Cross-site request refused' });
  });

  it('refuses a cross-site request that carries only Sec-Fetch-Site', async () => {
    const res = await vault.app.request(`${vault.origin}/api/auth/logout`, {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(403);
  });

  it('refuses a form-encoded login (JSON only)', async () => {
    const res = await vault.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=alice&password=${encodeURIComponent(alice.password)}`,
    });
    expect(res.status).toBe(415);
    expect((await json(res)).message).toMatch(/JSON/);
  });
});

describe('malformed requests', () => {
  it.each([
    ['not JSON at all', '{"username": ', 'The request body is not valid JSON'],
    ['a JSON array', '[]', 'The request body must be a JSON object'],
    ['a number for the username', '{"username": 5, "password": "x"}', 'Username is required'],
    ['no password', '{"username": "alice"}', 'Password is required'],
  ])('answers 400 with a message for %s', async (_, body, message) => {
    const res = await vault.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message });
  });

  it('answers 413 for a huge body', async () => {
    const res = await vault.postJson('/api/auth/login', {
      username: 'alice',
      password: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect((await json(res)).message).toBe('The request body is too large: at most 1 MB');
  });

  it('answers 404 with a message for an unknown API route', async () => {
    const res = await vault.request('/api/nothing-here');
    expect(res.status).toBe(404);
    expect((await json(res)).message).toMatch(/No API route/);
  });
});
