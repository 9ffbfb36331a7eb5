import { hash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminTokenListSchema,
  createdTokenSchema,
  tokenListSchema,
  type CreateTokenBody,
} from '../../contract/tokens.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Personal access tokens through the API: making, listing and revoking them (session only),
 * what is stored, and what `Authorization: Bearer` may and may not do.
 */
const START = Date.parse('2026-05-01T09:00:00Z');
let clock = START;
let vault: TestVault;
let olive: { id: number; cookie: string };
let oscar: { id: number; cookie: string };
let root: { id: number; cookie: string };

const INVALID = 'The access token is not valid (unknown, revoked or expired)';
const SESSION_ONLY = 'Access tokens cannot be used for this; sign in to the vault to do it';
const READ_ONLY = 'This access token may only read; this needs a token with the write scope';

beforeAll(async () => {
  vault = createTestVault({ now: () => clock });
  const person = async (username: string, role: 'USER' | 'ADMIN' = 'USER') => {
    const user = await vault.createUser({ username, role });
    return { id: user.id, cookie: await vault.login(username, user.password) };
  };
  olive = await person('olive');
  oscar = await person('oscar');
  root = await person('root', 'ADMIN');
});
afterAll(() => vault.close());

async function create(cookie: string, body: CreateTokenBody) {
  const res = await vault.postJson('/api/tokens', body, cookie);
  expect(res.status).toBe(201);
  return createdTokenSchema.parse(await json(res));
}

/** A request with the token alone: no cookie, no Origin. */
function withToken(secret: string, path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${secret}`);
  return vault.app.request(new URL(path, vault.origin).toString(), { ...init, headers });
}

async function listOf(cookie: string) {
  const res = await vault.request('/api/tokens', { cookie });
  expect(res.status).toBe(200);
  return tokenListSchema.strict().parse(await json(res)).tokens;
}

async function entryOf(userId: number): Promise<number> {
  const owner = (await vault.ctx.users.findById(userId))!;
  return (await vault.ctx.beverages.create(owner, { name: 'Talisker 10', type: 'WHISKEY' })).id;
}

describe('making, listing and revoking tokens', () => {
  it('creates a token whose secret is shown in that answer only, and lists it without it', async () => {
    const { token, secret } = await create(olive.cookie, { name: 'Dashboard', scope: 'read' });
    expect(secret).toMatch(/^vault_pat_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'Dashboard', scope: 'read', expiresAt: null });
    expect(token.lastUsedAt).toBeNull();
    const res = await vault.request('/api/tokens', { cookie: olive.cookie });
    const text = await res.text();
    expect(text).not.toContain(secret.slice('vault_pat_'.length));
    const listed = tokenListSchema.strict().parse(JSON.parse(text)).tokens;
    expect(listed.find((t) => t.id === token.id)).toEqual(token);
  });

  it('stores only the SHA-256 of the secret', async () => {
    const { token, secret } = await create(olive.cookie, { name: 'Hashed', scope: 'write' });
    const row = (await vault.ctx.database.database
      .prepare('SELECT * FROM api_tokens WHERE id = ?')
      .get(token.id)) as Record<string, unknown>;
    expect(row.secret_hash).toBe(hash('sha256', secret, 'hex'));
    const secretPart = secret.slice('vault_pat_'.length);
    for (const value of Object.values(row)) expect(String(value)).not.toContain(secretPart);
  });

  it('lists only the caller’s own tokens, newest first', async () => {
    const first = await create(oscar.cookie, { name: 'First', scope: 'read' });
    const second = await create(oscar.cookie, { name: 'Second', scope: 'read' });
    const ids = (await listOf(oscar.cookie)).map((t) => t.id);
    expect(ids.indexOf(second.token.id)).toBeLessThan(ids.indexOf(first.token.id));
    const olives = (await listOf(olive.cookie)).map((t) => t.id);
    expect(olives).not.toContain(first.token.id);
  });

  it('revokes at once: the token is gone from the list and answers 401 on its next request', async () => {
    const { token, secret } = await create(olive.cookie, { name: 'Short-lived', scope: 'read' });
    const before = await withToken(secret, `/api/beverages/${await entryOf(olive.id)}/comments`);
    expect(before.status).toBe(200);
    const res = await vault.request(`/api/tokens/${token.id}`, {
      method: 'DELETE',
      cookie: olive.cookie,
    });
    expect(res.status).toBe(204);
    expect((await listOf(olive.cookie)).map((t) => t.id)).not.toContain(token.id);
    const after = await withToken(secret, '/api/beverages/1/comments');
    expect(after.status).toBe(401);
    expect(await json(after)).toEqual({ message: INVALID });
  });

  it('refuses a token another user owns, as not found', async () => {
    const { token } = await create(olive.cookie, { name: 'Mine', scope: 'read' });
    const res = await vault.request(`/api/tokens/${token.id}`, {
      method: 'DELETE',
      cookie: oscar.cookie,
    });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'Access token not found' });
    expect((await listOf(olive.cookie)).map((t) => t.id)).toContain(token.id);
  });

  it.each([
    [{ name: '  ', scope: 'read' }, 'Name is required'],
    [{ name: 'x'.repeat(101), scope: 'read' }, 'Name must be at most 100 characters'],
    [{ name: 'Bot', scope: 'admin' }, "Scope must be 'read' or 'write'"],
    [
      { name: 'Bot', scope: 'read', expiresAt: 'next week' },
      'Expiry must be a date and time such as 2030-01-31T23:59:59Z',
    ],
    [
      { name: 'Bot', scope: 'read', expiresAt: '2026-04-30T00:00:00Z' },
      'Expiry must be in the future',
    ],
  ])('refuses the body %j with “%s”', async (body, message) => {
    const res = await vault.postJson('/api/tokens', body, olive.cookie);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message });
  });
});

describe('a request with a token', () => {
  it('acts as the owner and records when it was last used, at most once a minute', async () => {
    const { token, secret } = await create(olive.cookie, { name: 'Script', scope: 'write' });
    const entry = await entryOf(olive.id);
    const res = await withToken(secret, `/api/beverages/${entry}/cheer`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ cheerCount: 1, cheeredByMe: true });
    const lastUsed = async () =>
      (await listOf(olive.cookie)).find((t) => t.id === token.id)!.lastUsedAt;
    expect(await lastUsed()).toBe(new Date(clock).toISOString());
    const firstUse = clock;
    clock += 30_000;
    expect((await withToken(secret, `/api/beverages/${entry}/comments`)).status).toBe(200);
    expect(await lastUsed()).toBe(new Date(firstUse).toISOString());
    clock += 31_000;
    expect((await withToken(secret, `/api/beverages/${entry}/comments`)).status).toBe(200);
    expect(await lastUsed()).toBe(new Date(clock).toISOString());
  });

  it('answers 401 with a message for an unknown token, or one that is not a vault token', async () => {
    for (const secret of ['vault_pat_' + 'A'.repeat(43), 'something-else', 'x'.repeat(500)]) {
      const res = await withToken(secret, '/api/beverages/1/comments');
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ message: INVALID });
    }
  });

  it('answers 401 once the token has expired, and works until then', async () => {
    const expiresAt = new Date(clock + 3_600_000).toISOString();
    const { secret } = await create(olive.cookie, { name: 'An hour', scope: 'read', expiresAt });
    const path = `/api/beverages/${await entryOf(olive.id)}/comments`;
    clock += 3_599_000;
    expect((await withToken(secret, path)).status).toBe(200);
    clock += 1_000;
    const res = await withToken(secret, path);
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: INVALID });
  });

  it('answers 401 when its owner has been deleted (the tokens go with the user)', async () => {
    const gone = await vault.createUser({ username: 'gone' });
    const cookie = await vault.login('gone', gone.password);
    const { secret } = await create(cookie, { name: 'Orphan', scope: 'read' });
    await vault.ctx.database.database.prepare('DELETE FROM users WHERE id = ?').run(gone.id);
    expect(
      await vault.ctx.database.database
        .prepare('SELECT count(*) AS n FROM api_tokens WHERE user_id = ?')
        .get(gone.id),
    ).toEqual({ n: 0 });
    expect((await withToken(secret, '/api/beverages/1/comments')).status).toBe(401);
  });

  it('with the read scope is refused a write route (403), and with the write scope is not', async () => {
    const entry = await entryOf(olive.id);
    const read = await create(olive.cookie, { name: 'Reader', scope: 'read' });
    const refused = await withToken(read.secret, `/api/beverages/${entry}/cheer`, {
      method: 'POST',
    });
    expect(refused.status).toBe(403);
    expect(await json(refused)).toEqual({ message: READ_ONLY });
    const comment = await withToken(read.secret, `/api/beverages/${entry}/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'Not from a reader' }),
    });
    expect(comment.status).toBe(403);
    expect((await withToken(read.secret, `/api/beverages/${entry}/comments`)).status).toBe(200);
  });

  it.each([
    ['GET', '/api/tokens'],
    ['POST', '/api/tokens'],
    ['GET', '/api/tokens/all'],
    ['DELETE', '/api/tokens/1'],
    ['PATCH', '/api/users/me'],
    ['POST', '/api/totp/setup'],
    ['POST', '/api/auth/logout'],
    ['GET', '/api/no-such-route'],
  ])('is refused %s %s with a message, even with the write scope (403)', async (method, path) => {
    const { secret } = await create(root.cookie, {
      name: `Root ${method} ${path}`,
      scope: 'write',
    });
    const res = await withToken(secret, path, { method });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ message: SESSION_ONLY });
  });

  it('needs no cross-site check, while the same request with a cookie still does', async () => {
    const entry = await entryOf(olive.id);
    const { secret } = await create(olive.cookie, { name: 'Elsewhere', scope: 'write' });
    const foreign = { origin: 'https://elsewhere.example' };
    const byToken = await withToken(secret, `/api/beverages/${entry}/cheer`, {
      method: 'POST',
      headers: foreign,
    });
    expect(byToken.status).toBe(200);
    const byCookie = await vault.request(`/api/beverages/${entry}/cheer`, {
      method: 'POST',
      headers: foreign,
      cookie: olive.cookie,
    });
    expect(byCookie.status).toBe(403);
    expect(await json(byCookie)).toEqual({ message: 'Cross-site request refused' });
  });

  it('never reads or sets a cookie and never makes a session', async () => {
    const { secret } = await create(olive.cookie, { name: 'Cookieless', scope: 'read' });
    const sessions = () =>
      vault.ctx.database.database.prepare('SELECT count(*) AS n FROM sessions').get();
    const before = await sessions();
    const res = await withToken(secret, `/api/beverages/${await entryOf(olive.id)}/comments`, {
      // A stale session cookie beside the token: the session path would clear it.
      headers: { cookie: 'vault_session=stale' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await sessions()).toEqual(before);
  });
});

describe('an admin', () => {
  it('lists every user’s tokens with their owner and no secret, and revokes another user’s', async () => {
    const { token, secret } = await create(oscar.cookie, { name: 'Oscar’s bot', scope: 'read' });
    const res = await vault.request('/api/tokens/all', { cookie: root.cookie });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(secret.slice('vault_pat_'.length));
    const all = adminTokenListSchema.strict().parse(JSON.parse(text)).tokens;
    expect(all.find((t) => t.id === token.id)).toEqual({
      ...token,
      userId: oscar.id,
      username: 'oscar',
    });
    const revoked = await vault.request(`/api/tokens/${token.id}`, {
      method: 'DELETE',
      cookie: root.cookie,
    });
    expect(revoked.status).toBe(204);
    expect((await listOf(oscar.cookie)).map((t) => t.id)).not.toContain(token.id);
    expect((await withToken(secret, '/api/beverages/1/comments')).status).toBe(401);
  });

  it('is the only one who may list every user’s tokens', async () => {
    const res = await vault.request('/api/tokens/all', { cookie: olive.cookie });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({ message: 'Only an admin can do that' });
  });
});
