import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestVault, type TestVault } from '../helpers/vault.ts';
import { json } from '../helpers/json.ts';
import { totpCode } from '../helpers/second-factor.ts';
import { createSoftAuthenticator, type SoftAuthenticator } from '../helpers/soft-authenticator.ts';

const REQUIRED = {
  message: 'Enter your current password to change your second factor.',
  reauthenticate: true,
};
const WRONG = { message: 'Current password is incorrect', reauthenticate: true };
const FIVE_MINUTES = 5 * 60_000;

let vault: TestVault;
/** The vault's clock: a test moves it on to let a re-authentication run out. */
let clock = Date.now();

beforeAll(() => {
  vault = createTestVault({
    now: () => clock,
    throttleLimits: { perAccount: 3, perAddress: 1000, windowMs: 15 * 60_000 },
  });
});
afterAll(() => vault.close());

type User = Awaited<ReturnType<TestVault['createUser']>>;
let counter = 0;

/** A user signed in with the password only: the session has not re-authenticated. */
async function signedIn(role: 'USER' | 'ADMIN' = 'USER') {
  const user = await vault.createUser({ username: `reauth_user_${++counter}`, role });
  const cookie = await vault.login(user.username, user.password);
  return { user, cookie, authenticator: createSoftAuthenticator(vault.origin) };
}

/** Another live session of the user, as another browser would hold it. */
async function otherSession(user: User): Promise<string> {
  const { token } = await vault.ctx.sessions.start(user.id, { userAgent: 'other', ipAddress: '1' });
  return `vault_session=${token}`;
}

const meStatus = async (cookie: string) => (await vault.request('/api/auth/me', { cookie })).status;
const keys = (user: User) => vault.ctx.webauthn.list(user.id);
const post = (path: string, body: unknown, cookie: string) => vault.postJson(path, body, cookie);
const remove = (path: string, cookie: string, body?: unknown) =>
  body === undefined
    ? vault.request(path, { method: 'DELETE', cookie })
    : vault.postJson(path, body, cookie, 'DELETE');

async function register(cookie: string, authenticator: SoftAuthenticator, password?: string) {
  const options = await json(
    await post('/api/webauthn/registration/options', { password }, cookie),
  );
  return post(
    '/api/webauthn/registration/verify',
    { ...authenticator.register(options), nickname: null, password },
    cookie,
  );
}

/** A user whose session re-authenticated and registered one key. */
async function userWithKey() {
  const signed = await signedIn();
  const res = await register(signed.cookie, signed.authenticator, signed.user.password);
  if (res.status !== 200) throw new Error(`registration failed: ${res.status}`);
  return { ...signed, key: (await keys(signed.user))[0]! };
}

describe('changing the second factor without a fresh password', () => {
  it('refuses to start a key registration and remembers no challenge', async () => {
    const { user, cookie } = await signedIn();
    const res = await post('/api/webauthn/registration/options', {}, cookie);
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual(REQUIRED);
    const rows = (await vault.ctx.database.database
      .prepare('select count(*) n from webauthn_registrations where user_id = ?')
      .get(user.id)) as { n: number };
    expect(rows.n).toBe(0);
  });

  it('refuses to complete a key registration once the re-authentication ran out', async () => {
    const { user, cookie, authenticator } = await signedIn();
    const options = await json(
      await post('/api/webauthn/registration/options', { password: user.password }, cookie),
    );
    clock += FIVE_MINUTES;
    const res = await post(
      '/api/webauthn/registration/verify',
      { ...authenticator.register(options), nickname: null },
      cookie,
    );
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual(REQUIRED);
    expect(await keys(user)).toEqual([]);
    expect((await vault.ctx.users.findById(user.id))!.webauthnEnabled).toBe(false);
  });

  it('refuses to remove your last key, with or without a body', async () => {
    const { user, cookie, key } = await userWithKey();
    clock += FIVE_MINUTES;
    const bare = await remove(`/api/webauthn/credentials/${key.id}`, cookie);
    expect(bare.status).toBe(403);
    expect(await json(bare)).toEqual(REQUIRED);
    const empty = await remove(`/api/webauthn/credentials/${key.id}`, cookie, { password: '' });
    expect(await json(empty)).toEqual(REQUIRED);
    expect(await keys(user)).toHaveLength(1);
    expect((await vault.ctx.users.findById(user.id))!.webauthnEnabled).toBe(true);
  });

  it('refuses to start the authenticator app setup and stores no secret', async () => {
    const { user, cookie } = await signedIn();
    const res = await post('/api/totp/setup', {}, cookie);
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual(REQUIRED);
    const bare = await vault.request('/api/totp/setup', { method: 'POST', cookie });
    expect(bare.status).toBe(403);
    const stored = (await vault.ctx.database.database
      .prepare('select count(*) n from totp_secrets where user_id = ?')
      .get(user.id)) as { n: number };
    expect(stored.n).toBe(0);
  });

  it('refuses to confirm the authenticator app once the re-authentication ran out', async () => {
    const { user, cookie } = await signedIn();
    const setup = await json(await post('/api/totp/setup', { password: user.password }, cookie));
    clock += FIVE_MINUTES;
    const res = await post('/api/totp/verify', { token: totpCode(setup.secret, clock) }, cookie);
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual(REQUIRED);
    expect((await vault.ctx.users.findById(user.id))!.totpEnabled).toBe(false);
  });
});

describe('changing the second factor with the password', () => {
  it('registers and removes a key with the password in the request', async () => {
    const { user, cookie, authenticator } = await signedIn();
    const res = await register(cookie, authenticator, user.password);
    expect(res.status).toBe(200);
    const [key] = await keys(user);
    clock += FIVE_MINUTES;
    const removed = await remove(`/api/webauthn/credentials/${key!.id}`, cookie, {
      password: user.password,
    });
    expect(removed.status).toBe(200);
    expect((await json(removed)).user.webauthnEnabled).toBe(false);
  });

  it('sets up and confirms the authenticator app with the password in the request', async () => {
    const { user, cookie } = await signedIn();
    const setup = await json(await post('/api/totp/setup', { password: user.password }, cookie));
    clock += FIVE_MINUTES;
    const token = totpCode(setup.secret, clock);
    const res = await post('/api/totp/verify', { token, password: user.password }, cookie);
    expect(res.status).toBe(200);
    expect((await json(res)).user.totpEnabled).toBe(true);
  });

  it('lets a re-authentication last five minutes for this session only', async () => {
    const { user, cookie, authenticator } = await signedIn();
    const other = await vault.login(user.username, user.password);
    const res = await post('/api/auth/reauthenticate', { password: user.password }, cookie);
    expect(res.status).toBe(200);
    const { reauthenticatedUntil } = await json(res);
    expect(Date.parse(reauthenticatedUntil)).toBe(clock + FIVE_MINUTES);
    expect((await post('/api/webauthn/registration/options', {}, other)).status).toBe(403);
    clock += FIVE_MINUTES - 1000;
    expect((await register(cookie, authenticator)).status).toBe(200);
    clock += 2000;
    const late = await remove(`/api/webauthn/credentials/${(await keys(user))[0]!.id}`, cookie);
    expect(late.status).toBe(403);
    expect(await keys(user)).toHaveLength(1);
  });

  it('asks for the password to re-authenticate, and needs a session', async () => {
    const { cookie } = await signedIn();
    const empty = await post('/api/auth/reauthenticate', { password: '' }, cookie);
    expect(empty.status).toBe(400);
    expect(await json(empty)).toEqual({ message: 'Enter your current password' });
    const anonymous = await vault.postJson('/api/auth/reauthenticate', { password: 'x' });
    expect(anonymous.status).toBe(401);
  });
});

describe('a wrong password', () => {
  it('changes nothing and counts against the sign-in throttle', async () => {
    const { user, cookie, key } = await userWithKey();
    clock += FIVE_MINUTES;
    const attempts = [
      () => remove(`/api/webauthn/credentials/${key.id}`, cookie, { password: 'wrong-1' }),
      () => post('/api/totp/setup', { password: 'wrong-2' }, cookie),
      () => post('/api/auth/reauthenticate', { password: 'wrong-3' }, cookie),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual(WRONG);
    }
    expect(await keys(user)).toHaveLength(1);
    // The account is now over its limit: even the right password waits, and so does sign-in.
    const right = await post('/api/auth/reauthenticate', { password: user.password }, cookie);
    expect(right.status).toBe(429);
    const login = await vault.postJson('/api/auth/login', {
      username: user.username,
      password: user.password,
    });
    expect(login.status).toBe(429);
    expect((await remove(`/api/webauthn/credentials/${key.id}`, cookie)).status).toBe(403);
    expect(await keys(user)).toHaveLength(1);
    clock += 16 * 60_000;
  });
});

describe('sessions after a change of factor', () => {
  it('ends the other sessions when a key is added or removed, and keeps this one', async () => {
    const { user, cookie, authenticator } = await signedIn();
    const before = await otherSession(user);
    expect((await register(cookie, authenticator, user.password)).status).toBe(200);
    expect(await meStatus(before)).toBe(401);
    expect(await meStatus(cookie)).toBe(200);
    const between = await otherSession(user);
    const removed = await remove(`/api/webauthn/credentials/${(await keys(user))[0]!.id}`, cookie);
    expect(removed.status).toBe(200);
    expect(await meStatus(between)).toBe(401);
    expect(await meStatus(cookie)).toBe(200);
  });

  it('ends the other sessions when the app is confirmed or turned off', async () => {
    const { user, cookie } = await signedIn();
    const setup = await json(await post('/api/totp/setup', { password: user.password }, cookie));
    const before = await otherSession(user);
    const on = await post('/api/totp/verify', { token: totpCode(setup.secret, clock) }, cookie);
    expect(on.status).toBe(200);
    expect(await meStatus(before)).toBe(401);
    clock += 30_000;
    const between = await otherSession(user);
    const off = await post(
      '/api/totp/disable',
      { token: totpCode(setup.secret, clock), password: user.password },
      cookie,
    );
    expect(off.status).toBe(200);
    expect(await meStatus(between)).toBe(401);
    expect(await meStatus(cookie)).toBe(200);
  });

  it("ends all of a user's sessions when an admin removes their key", async () => {
    const owner = await userWithKey();
    const admin = await signedIn('ADMIN');
    const res = await remove(`/api/webauthn/admin/credentials/${owner.key.id}`, admin.cookie);
    expect(res.status).toBe(200);
    expect(await meStatus(owner.cookie)).toBe(401);
    expect(await meStatus(admin.cookie)).toBe(200);
  });

  it("needs an admin's password for their own key and keeps their session", async () => {
    const admin = await signedIn('ADMIN');
    expect((await register(admin.cookie, admin.authenticator, admin.user.password)).status).toBe(
      200,
    );
    const other = await otherSession(admin.user);
    clock += FIVE_MINUTES;
    const path = `/api/webauthn/admin/credentials/${(await keys(admin.user))[0]!.id}`;
    const refused = await remove(path, admin.cookie);
    expect(refused.status).toBe(403);
    expect(await json(refused)).toEqual(REQUIRED);
    expect(await keys(admin.user)).toHaveLength(1);
    const res = await remove(path, admin.cookie, { password: admin.user.password });
    expect(res.status).toBe(200);
    expect(await meStatus(other)).toBe(401);
    expect(await meStatus(admin.cookie)).toBe(200);
  });
});
