import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  createTestVault,
  sessionCookieFrom,
  type TestVault,
} from '../helpers/vault.ts';
import { json } from '../helpers/json.ts';
import {
  clearsCookie,
  cookieFrom,
  signInReauthenticated,
  totpCode,
} from '../helpers/second-factor.ts';
import { createSoftAuthenticator, type SoftAuthenticator } from '../helpers/soft-authenticator.ts';

const EXPIRED = 'Your sign-in expired. Sign in again.';
const NOT_VERIFIED = 'The security key could not be verified. Try again.';
const REGISTRATION_EXPIRED = 'The security key registration expired. Start it again.';

let vault: TestVault;
let adminCookie: string;
let clock = Date.now();

beforeAll(async () => {
  vault = createTestVault({
    now: () => clock,
    throttleLimits: { perAccount: 5, perAddress: 1000, windowMs: 15 * 60_000 },
  });
  await vault.ctx.userAdmin.create({
    username: 'admin',
    fullName: 'Vault Admin',
    email: 'admin@localhost',
    password: ADMIN_PASSWORD,
    role: 'ADMIN',
  });
  adminCookie = await vault.login('admin', ADMIN_PASSWORD);
});
afterAll(() => vault.close());

type User = Awaited<ReturnType<TestVault['createUser']>>;
let counter = 0;

async function signedInUser() {
  const user = await vault.createUser({ username: `key_user_${++counter}` });
  const cookie = await signInReauthenticated(vault, user);
  return { user, cookie, authenticator: createSoftAuthenticator(vault.origin) };
}

const registrationOptions = async (cookie: string) =>
  json(await vault.postJson('/api/webauthn/registration/options', {}, cookie));

/** The whole registration ceremony; returns the verify response. */
async function registerKey(
  cookie: string,
  authenticator: SoftAuthenticator,
  nickname: string | null = null,
) {
  const options = await registrationOptions(cookie);
  const response = authenticator.register(options);
  return vault.postJson('/api/webauthn/registration/verify', { ...response, nickname }, cookie);
}

/** The password step of a user with keys: the options and the pending-login cookie. */
async function passwordStep(user: User) {
  const res = await vault.postJson('/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  return { res, body: await json(res), pending: cookieFrom(res, 'vault_pending') };
}

const verifyAssertion = (pending: string | undefined, assertion: unknown) =>
  vault.postJson('/api/webauthn/authentication/verify', assertion, pending);

const storedCounter = (credentialId: string) =>
  vault.ctx.database.database
    .prepare('select counter from webauthn_credentials where credential_id = ?')
    .pluck<number>()
    .get(credentialId);

describe('registering a security key', () => {
  it('offers options for the vault as relying party, with no attestation', async () => {
    const { user, cookie } = await signedInUser();
    const res = await vault.postJson('/api/webauthn/registration/options', {}, cookie);
    expect(res.status).toBe(200);
    const options = await json(res);
    expect(options.rp).toEqual({ name: 'the vault', id: 'localhost' });
    expect(options.user.name).toBe(user.username);
    expect(options.user.displayName).toBe(user.fullName);
    expect(options.attestation).toBe('none');
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(options.excludeCredentials).toEqual([]);
    expect(options.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toContain(-7);
  });

  it('stores a key with its nickname, lists it and turns webauthnEnabled on', async () => {
    const { cookie, authenticator } = await signedInUser();
    const res = await registerKey(cookie, authenticator, '  Blue key  ');
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.credentials).toHaveLength(1);
    const [credential] = body.credentials;
    expect(Object.keys(credential).sort()).toEqual(
      ['createdAt', 'credentialId', 'id', 'lastUsedAt', 'nickname', 'transports'].sort(),
    );
    expect(credential).toMatchObject({
      credentialId: authenticator.credentials[0]!.id.toString('base64url'),
      nickname: 'Blue key',
      lastUsedAt: null,
      transports: ['usb'],
    });
    expect(new Date(credential.createdAt).toISOString()).toBe(credential.createdAt);
    expect(body.user.webauthnEnabled).toBe(true);
    const me = await json(await vault.request('/api/auth/me', { cookie }));
    expect(me.user.webauthnEnabled).toBe(true);
    const list = await json(await vault.request('/api/webauthn/credentials', { cookie }));
    expect(list.credentials).toEqual(body.credentials);
  });

  it('stores a blank or missing nickname as null', async () => {
    const { cookie, authenticator } = await signedInUser();
    const res = await registerKey(cookie, authenticator, '   ');
    expect((await json(res)).credentials[0].nickname).toBeNull();
  });

  it('refuses a nickname longer than 64 characters and stores nothing', async () => {
    const { user, cookie, authenticator } = await signedInUser();
    const res = await registerKey(cookie, authenticator, 'x'.repeat(65));
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      message: 'The nickname must be at most 64 characters long',
    });
    expect(await vault.ctx.webauthn.list(user.id)).toEqual([]);
  });

  it('keeps several keys per user and excludes them from the next registration', async () => {
    const { cookie, authenticator } = await signedInUser();
    const second = createSoftAuthenticator(vault.origin);
    await registerKey(cookie, authenticator, 'First');
    const options = await registrationOptions(cookie);
    expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([
      authenticator.credentials[0]!.id.toString('base64url'),
    ]);
    // The user handle stays the same for all of a user's keys.
    const firstHandle = authenticator.credentials[0]!.userHandle;
    expect(options.user.id).toBe(firstHandle);
    const res = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...second.register(options), nickname: 'Second' },
      cookie,
    );
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.credentials.map((c: { nickname: string }) => c.nickname)).toEqual([
      'First',
      'Second',
    ]);
  });

  it('uses a registration challenge once', async () => {
    const { user, cookie, authenticator } = await signedInUser();
    const options = await registrationOptions(cookie);
    const response = authenticator.register(options);
    const first = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...response, nickname: null },
      cookie,
    );
    expect(first.status).toBe(200);
    const replay = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...response, nickname: null },
      cookie,
    );
    expect(replay.status).toBe(400);
    expect(await json(replay)).toEqual({ message: REGISTRATION_EXPIRED });
    const other = createSoftAuthenticator(vault.origin).register(options);
    const sameChallenge = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...other, nickname: null },
      cookie,
    );
    expect(sameChallenge.status).toBe(400);
    expect(await vault.ctx.webauthn.list(user.id)).toHaveLength(1);
  });

  it('binds the registration to the session that asked for the options', async () => {
    const { user, cookie, authenticator } = await signedInUser();
    const otherSession = await signInReauthenticated(vault, user);
    const options = await registrationOptions(cookie);
    const res = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...authenticator.register(options), nickname: null },
      otherSession,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: REGISTRATION_EXPIRED });
  });

  it('refuses a registration made for another origin', async () => {
    const { user, cookie, authenticator } = await signedInUser();
    const options = await registrationOptions(cookie);
    const response = authenticator.register(options, { origin: 'https://evil.example' });
    const res = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...response, nickname: null },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      message: 'The security key could not be registered. Try again.',
    });
    expect(await vault.ctx.webauthn.list(user.id)).toEqual([]);
    expect((await vault.ctx.users.findById(user.id))!.webauthnEnabled).toBe(false);
  });

  it('refuses a registration challenge after five minutes', async () => {
    const { user, cookie, authenticator } = await signedInUser();
    const options = await registrationOptions(cookie);
    clock += 5 * 60_000 + 1000;
    const res = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...authenticator.register(options), nickname: null, password: user.password },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: REGISTRATION_EXPIRED });
  });

  it('answers 400 to something that is not a registration response', async () => {
    const { cookie } = await signedInUser();
    await registrationOptions(cookie);
    const res = await vault.postJson(
      '/api/webauthn/registration/verify',
      { id: 'abc', nickname: null },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'The security key response is not valid' });
  });

  it.each([
    ['POST', '/api/webauthn/registration/options'],
    ['POST', '/api/webauthn/registration/verify'],
    ['GET', '/api/webauthn/credentials'],
    ['DELETE', '/api/webauthn/credentials/1'],
  ])('answers 401 to %s %s without a session', async (method, path) => {
    const res =
      method === 'POST' ? await vault.postJson(path, {}) : await vault.request(path, { method });
    expect(res.status).toBe(401);
    expect(await json(res)).toHaveProperty('message');
  });
});

/** A signed-in user with one registered key (the session cookie, the authenticator). */
async function userWithKey(nickname: string | null = 'Key') {
  const signedIn = await signedInUser();
  const res = await registerKey(signedIn.cookie, signedIn.authenticator, nickname);
  if (res.status !== 200) throw new Error(`registration failed: ${res.status}`);
  return signedIn;
}

describe('signing in with a security key', () => {
  it('answers the password step with options and the key list, and no session', async () => {
    const { user, authenticator } = await userWithKey('Blue key');
    const { res, body, pending } = await passwordStep(user);
    expect(res.status).toBe(200);
    expect(body.requiresWebAuthn).toBe(true);
    expect(body.options.rpId).toBe('localhost');
    expect(body.options.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const id = authenticator.credentials[0]!.id.toString('base64url');
    expect(body.options.allowCredentials).toEqual([
      { id, type: 'public-key', transports: ['usb'] },
    ]);
    expect(body.credentials).toEqual([
      expect.objectContaining({ credentialId: id, nickname: 'Blue key' }),
    ]);
    expect(body.user).toBeUndefined();
    expect(cookieFrom(res, 'vault_session')).toBeUndefined();
    expect(pending).toBeDefined();
    expect((await vault.request('/api/auth/me', { cookie: pending! })).status).toBe(401);
    expect((await vault.request('/api/webauthn/credentials', { cookie: pending! })).status).toBe(
      401,
    );
  });

  it('completes the sign-in with an assertion: user, keys and a fresh session', async () => {
    const { user, authenticator } = await userWithKey();
    const { body, pending } = await passwordStep(user);
    const res = await verifyAssertion(pending, authenticator.authenticate(body.options));
    expect(res.status).toBe(200);
    const done = await json(res);
    expect(done.user).toMatchObject({ id: user.id, webauthnEnabled: true, totpEnabled: false });
    expect(done.credentials).toHaveLength(1);
    expect(done.credentials[0].lastUsedAt).toBe(new Date(clock).toISOString());
    const session = sessionCookieFrom(res);
    expect((await vault.request('/api/auth/me', { cookie: session })).status).toBe(200);
    expect(clearsCookie(res, 'vault_pending')).toBe(true);
    expect(await storedCounter(done.credentials[0].credentialId)).toBe(1);
  });

  it('refuses a replayed assertion', async () => {
    const { user, authenticator } = await userWithKey();
    const first = await passwordStep(user);
    const assertion = authenticator.authenticate(first.body.options);
    expect((await verifyAssertion(first.pending, assertion)).status).toBe(200);
    // Sent again to the pending login it completed.
    const again = await verifyAssertion(first.pending, assertion);
    expect(again.status).toBe(401);
    expect(await json(again)).toEqual({ message: EXPIRED });
    // Sent to a new pending login (another challenge).
    const second = await passwordStep(user);
    const replay = await verifyAssertion(second.pending, assertion);
    expect(replay.status).toBe(401);
    expect(await json(replay)).toEqual({ message: NOT_VERIFIED });
    expect(cookieFrom(replay, 'vault_session')).toBeUndefined();
  });

  it('lets exactly one of two identical assertions sent at once succeed', async () => {
    const { user, authenticator } = await userWithKey();
    const { body, pending } = await passwordStep(user);
    const assertion = authenticator.authenticate(body.options);
    const results = await Promise.all([
      verifyAssertion(pending, assertion),
      verifyAssertion(pending, assertion),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(results.filter((r) => cookieFrom(r, 'vault_session'))).toHaveLength(1);
  });

  it('lets exactly one of two pending logins succeed with assertions of the same counter', async () => {
    const { user, authenticator } = await userWithKey();
    const a = await passwordStep(user);
    const b = await passwordStep(user);
    const results = await Promise.all([
      verifyAssertion(a.pending, authenticator.authenticate(a.body.options, { counter: 7 })),
      verifyAssertion(b.pending, authenticator.authenticate(b.body.options, { counter: 7 })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('refuses a signature counter that went backwards', async () => {
    const { user, authenticator } = await userWithKey();
    const first = await passwordStep(user);
    const ok = await verifyAssertion(
      first.pending,
      authenticator.authenticate(first.body.options, { counter: 10 }),
    );
    expect(ok.status).toBe(200);
    const second = await passwordStep(user);
    const cloned = await verifyAssertion(
      second.pending,
      authenticator.authenticate(second.body.options, { counter: 9 }),
    );
    expect(cloned.status).toBe(401);
    expect(await json(cloned)).toEqual({ message: NOT_VERIFIED });
    expect(await storedCounter(authenticator.credentials[0]!.id.toString('base64url'))).toBe(10);
    // The same pending login still accepts a good assertion.
    const good = await verifyAssertion(
      second.pending,
      authenticator.authenticate(second.body.options, { counter: 11 }),
    );
    expect(good.status).toBe(200);
  });

  it('uses an authentication challenge once', async () => {
    const { user, authenticator } = await userWithKey();
    const { body, pending } = await passwordStep(user);
    expect((await verifyAssertion(pending, authenticator.authenticate(body.options))).status).toBe(
      200,
    );
    // A fresh, validly signed assertion over the same challenge.
    const again = await verifyAssertion(pending, authenticator.authenticate(body.options));
    expect(again.status).toBe(401);
    const next = await passwordStep(user);
    const oldChallenge = await verifyAssertion(
      next.pending,
      authenticator.authenticate(body.options),
    );
    expect(oldChallenge.status).toBe(401);
    expect(await json(oldChallenge)).toEqual({ message: NOT_VERIFIED });
  });

  it("refuses another user's key", async () => {
    const alice = await userWithKey();
    const bob = await userWithKey();
    const { body, pending } = await passwordStep(bob.user);
    const res = await verifyAssertion(
      pending,
      alice.authenticator.authenticate({ ...body.options, allowCredentials: [] }),
    );
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: NOT_VERIFIED });
  });

  it('needs the pending-login cookie of the browser that passed the password step', async () => {
    const { user, authenticator } = await userWithKey();
    const { body } = await passwordStep(user);
    const res = await verifyAssertion(undefined, authenticator.authenticate(body.options));
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: EXPIRED });
  });

  it('cannot be completed with an authenticator code', async () => {
    const { user } = await userWithKey();
    const { pending } = await passwordStep(user);
    const res = await vault.postJson(
      '/api/auth/login/totp',
      { token: '123456', backup: false },
      pending,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'This sign-in needs your security key.' });
  });

  it('ends a pending login after five failed assertions', async () => {
    const { user, authenticator } = await userWithKey();
    const { body, pending } = await passwordStep(user);
    const stranger = createSoftAuthenticator(vault.origin);
    stranger.register({
      challenge: 'x',
      rp: { name: 'the vault' },
      user: { id: 'dXNlcg', name: 'u', displayName: 'u' },
    });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await verifyAssertion(
        pending,
        stranger.authenticate({ challenge: body.options.challenge }),
      );
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(await json(last!)).toEqual({ message: 'Too many failed attempts. Sign in again.' });
    const good = await verifyAssertion(pending, authenticator.authenticate(body.options));
    expect(good.status).toBe(401);
    expect(await json(good)).toEqual({ message: EXPIRED });
    clock += 16 * 60_000; // let the account's throttle window pass
  });

  it('answers 400 to something that is not an assertion', async () => {
    const { user } = await userWithKey();
    const { pending } = await passwordStep(user);
    const res = await verifyAssertion(pending, { id: 'abc', response: {} });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'The security key response is not valid' });
  });
});

describe('removing security keys', () => {
  it('removes your own key; removing the last turns webauthnEnabled off', async () => {
    const { user, cookie } = await userWithKey();
    const second = createSoftAuthenticator(vault.origin);
    await registerKey(cookie, second, 'Spare');
    const keys = (await json(await vault.request('/api/webauthn/credentials', { cookie })))
      .credentials;
    const first = await vault.request(`/api/webauthn/credentials/${keys[0].id}`, {
      method: 'DELETE',
      cookie,
    });
    expect(first.status).toBe(200);
    const afterFirst = await json(first);
    expect(afterFirst.credentials.map((c: { nickname: string }) => c.nickname)).toEqual(['Spare']);
    expect(afterFirst.user.webauthnEnabled).toBe(true);
    const last = await vault.request(`/api/webauthn/credentials/${keys[1].id}`, {
      method: 'DELETE',
      cookie,
    });
    const afterLast = await json(last);
    expect(afterLast.credentials).toEqual([]);
    expect(afterLast.user.webauthnEnabled).toBe(false);
    const me = await json(await vault.request('/api/auth/me', { cookie }));
    expect(me.user.webauthnEnabled).toBe(false);
    // Signing in is a single step again.
    const { body } = await passwordStep(user);
    expect(body.requiresWebAuthn).toBeUndefined();
    expect(body.user.username).toBe(user.username);
  });

  it("refuses to remove another user's key (404) and keeps it", async () => {
    const owner = await userWithKey();
    const other = await signedInUser();
    const [key] = await vault.ctx.webauthn.list(owner.user.id);
    const res = await vault.request(`/api/webauthn/credentials/${key!.id}`, {
      method: 'DELETE',
      cookie: other.cookie,
    });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'Security key not found' });
    expect(await vault.ctx.webauthn.list(owner.user.id)).toHaveLength(1);
  });

  it("lets an admin list and remove a user's keys", async () => {
    const { user } = await userWithKey('Office key');
    const listed = await vault.request(`/api/webauthn/admin/users/${user.id}/credentials`, {
      cookie: adminCookie,
    });
    expect(listed.status).toBe(200);
    const { credentials } = await json(listed);
    expect(credentials).toEqual([expect.objectContaining({ nickname: 'Office key' })]);
    const removed = await vault.request(`/api/webauthn/admin/credentials/${credentials[0].id}`, {
      method: 'DELETE',
      cookie: adminCookie,
    });
    expect(removed.status).toBe(200);
    const body = await json(removed);
    expect(body.credentials).toEqual([]);
    expect(body.user).toMatchObject({ id: user.id, webauthnEnabled: false });
    expect((await vault.ctx.users.findById(user.id))!.webauthnEnabled).toBe(false);
  });

  it('refuses the admin routes to a plain user (403) and keeps the keys', async () => {
    const owner = await userWithKey();
    const plain = await signedInUser();
    const [key] = await vault.ctx.webauthn.list(owner.user.id);
    const list = await vault.request(`/api/webauthn/admin/users/${owner.user.id}/credentials`, {
      cookie: plain.cookie,
    });
    expect(list.status).toBe(403);
    const remove = await vault.request(`/api/webauthn/admin/credentials/${key!.id}`, {
      method: 'DELETE',
      cookie: plain.cookie,
    });
    expect(remove.status).toBe(403);
    expect(await json(remove)).toHaveProperty('message');
    expect(await vault.ctx.webauthn.list(owner.user.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown user or key on the admin routes', async () => {
    const list = await vault.request('/api/webauthn/admin/users/99999/credentials', {
      cookie: adminCookie,
    });
    expect(list.status).toBe(404);
    const remove = await vault.request('/api/webauthn/admin/credentials/99999', {
      method: 'DELETE',
      cookie: adminCookie,
    });
    expect(remove.status).toBe(404);
    expect(await json(remove)).toEqual({ message: 'Security key not found' });
  });
});

describe('only one second factor at a time', () => {
  it('refuses the authenticator app setup while a security key exists (409)', async () => {
    const { user, cookie } = await userWithKey();
    const res = await vault.postJson('/api/totp/setup', {}, cookie);
    expect(res.status).toBe(409);
    expect((await json(res)).message).toMatch(/^Remove your security keys/);
    const stored = (await vault.ctx.database.database
      .prepare('select count(*) n from totp_secrets where user_id = ?')
      .get(user.id)) as { n: number };
    expect(stored.n).toBe(0);
  });

  it('refuses key registration while the authenticator app is on (409)', async () => {
    const { cookie } = await signedInUser();
    const setup = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    const on = await vault.postJson(
      '/api/totp/verify',
      { token: totpCode(setup.secret, clock) },
      cookie,
    );
    expect(on.status).toBe(200);
    const res = await vault.postJson('/api/webauthn/registration/options', {}, cookie);
    expect(res.status).toBe(409);
    expect((await json(res)).message).toMatch(/^Turn off the authenticator app/);
  });

  it('refuses a registration whose options were fetched before the app was turned on', async () => {
    const { user, cookie, authenticator } = await signedInUser();
    const options = await registrationOptions(cookie);
    const setup = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    await vault.postJson('/api/totp/verify', { token: totpCode(setup.secret, clock) }, cookie);
    const res = await vault.postJson(
      '/api/webauthn/registration/verify',
      { ...authenticator.register(options), nickname: null },
      cookie,
    );
    expect(res.status).toBe(409);
    expect(await vault.ctx.webauthn.list(user.id)).toEqual([]);
  });

  it('refuses to confirm an authenticator setup once a key was registered', async () => {
    const { user, cookie, authenticator } = await signedInUser();
    const setup = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    expect((await registerKey(cookie, authenticator)).status).toBe(200);
    const res = await vault.postJson(
      '/api/totp/verify',
      { token: totpCode(setup.secret, clock) },
      cookie,
    );
    expect(res.status).toBe(409);
    expect((await vault.ctx.users.findById(user.id))!.totpEnabled).toBe(false);
  });
});
