import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestVault, sessionCookieFrom, type TestVault } from '../helpers/vault.ts';
import { json } from '../helpers/json.ts';
import {
  clearsCookie,
  cookieFrom,
  setCookieHeader,
  signInReauthenticated,
  totpCode,
  wrongTotpCode,
  enableTotp,
} from '../helpers/second-factor.ts';

const EXPIRED = 'Your sign-in expired. Sign in again.';
const CODE_FORMAT = 'Enter the 6-digit code from your authenticator app';

let vault: TestVault;
/** The vault's clock. Codes are computed for it; a test moves it on to reach a new step. */
let clock = Date.now();
const nextStep = () => {
  clock += 30_000;
};

beforeAll(() => {
  vault = createTestVault({
    now: () => clock,
    throttleLimits: { perAccount: 3, perAddress: 1000, windowMs: 15 * 60_000 },
  });
});
afterAll(() => vault.close());

type User = Awaited<ReturnType<TestVault['createUser']>>;
let counter = 0;
const freshUser = () => vault.createUser({ username: `totp_user_${++counter}` });

/** A user with the authenticator app on; the clock is moved past the step used to confirm. */
async function userWithTotp() {
  const user = await freshUser();
  const enabled = await enableTotp(vault, user, clock);
  nextStep();
  return { user, ...enabled };
}

/** The password step; returns the answer and the pending-login cookie it set. */
async function passwordStep(user: User) {
  const res = await vault.postJson('/api/auth/login', {
    username: user.username,
    password: user.password,
  });
  return { res, body: await json(res), pending: cookieFrom(res, 'vault_pending') };
}

const secondStep = (pending: string | undefined, token: string, backup = false) =>
  vault.postJson('/api/auth/login/totp', { token, backup }, pending);

const meStatus = async (cookie: string) => (await vault.request('/api/auth/me', { cookie })).status;

describe('setting up the authenticator app', () => {
  it('returns the secret, an otpauth link, a PNG QR code and ten backup codes', async () => {
    const user = await freshUser();
    const cookie = await signInReauthenticated(vault, user);
    const res = await vault.postJson('/api/totp/setup', {}, cookie);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(['backupCodes', 'otpAuthUrl', 'qrCode', 'secret']);
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(body.otpAuthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/The Vault:${user.username}`);
    expect(url.searchParams.get('secret')).toBe(body.secret);
    expect(url.searchParams.get('issuer')).toBe('The Vault');
    expect(body.qrCode).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(body.qrCode.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect(body.backupCodes).toHaveLength(10);
    for (const code of body.backupCodes) {
      // Five groups of five symbols of a 32-symbol alphabet: 125 random bits.
      expect(code).toMatch(/^[A-HJ-NP-Z2-9]{5}(-[A-HJ-NP-Z2-9]{5}){4}$/);
    }
    expect(new Set(body.backupCodes).size).toBe(10);
  });

  it('stores the backup codes only as hashes', async () => {
    const user = await freshUser();
    const cookie = await signInReauthenticated(vault, user);
    const { backupCodes } = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    const stored = (await vault.ctx.database.database
      .prepare('select code_hash from backup_codes where user_id = ?')
      .all(user.id)) as { code_hash: string }[];
    expect(stored).toHaveLength(10);
    const plain = new Set(backupCodes.map((c: string) => c.replace(/-/g, '')));
    for (const { code_hash } of stored) {
      expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(plain.has(code_hash)).toBe(false);
      expect(backupCodes).not.toContain(code_hash);
    }
    const expected = createHash('sha256').update(backupCodes[0].replace(/-/g, '')).digest('hex');
    expect(stored.map((s) => s.code_hash)).toContain(expected);
  });

  it('leaves the app off until a code is verified', async () => {
    const user = await freshUser();
    const cookie = await signInReauthenticated(vault, user);
    await vault.postJson('/api/totp/setup', {}, cookie);
    const me = await json(await vault.request('/api/auth/me', { cookie }));
    expect(me.user.totpEnabled).toBe(false);
    const { body } = await passwordStep(user);
    expect(body.user.username).toBe(user.username);
    expect(body.requiresTotp).toBeUndefined();
  });

  it('turns the app on when a code from it is verified', async () => {
    const user = await freshUser();
    const cookie = await signInReauthenticated(vault, user);
    const { secret } = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    const res = await vault.postJson(
      '/api/totp/verify',
      { token: totpCode(secret, clock) },
      cookie,
    );
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.user.totpEnabled).toBe(true);
    expect(body.user.webauthnEnabled).toBe(false);
    const me = await json(await vault.request('/api/auth/me', { cookie }));
    expect(me.user.totpEnabled).toBe(true);
    nextStep();
  });

  it('refuses a wrong code at verification and leaves the app off', async () => {
    const user = await freshUser();
    const cookie = await signInReauthenticated(vault, user);
    const { secret } = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    const wrong = wrongTotpCode(secret, clock);
    const res = await vault.postJson('/api/totp/verify', { token: wrong }, cookie);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'Invalid authentication code' });
    const me = await json(await vault.request('/api/auth/me', { cookie }));
    expect(me.user.totpEnabled).toBe(false);
  });

  it.each([['12345'], ['abcdef'], ['1234567']])(
    'refuses %s at verification: a code is exactly 6 digits',
    async (token) => {
      const user = await freshUser();
      const cookie = await signInReauthenticated(vault, user);
      await vault.postJson('/api/totp/setup', {}, cookie);
      const res = await vault.postJson('/api/totp/verify', { token }, cookie);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message: CODE_FORMAT });
    },
  );

  it('replaces an unconfirmed setup with a new one', async () => {
    const user = await freshUser();
    const cookie = await signInReauthenticated(vault, user);
    const first = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    const second = await json(await vault.postJson('/api/totp/setup', {}, cookie));
    expect(second.secret).not.toBe(first.secret);
    const old = await vault.postJson(
      '/api/totp/verify',
      { token: totpCode(first.secret, clock) },
      cookie,
    );
    expect(old.status).toBe(400);
    const res = await vault.postJson(
      '/api/totp/verify',
      { token: totpCode(second.secret, clock) },
      cookie,
    );
    expect(res.status).toBe(200);
    nextStep();
  });

  it('refuses a new setup while the app is on (409): it must be turned off first', async () => {
    const { cookie, user } = await userWithTotp();
    const before = await vault.ctx.database.database
      .prepare('select secret from totp_secrets where user_id = ?')
      .get(user.id);
    const res = await vault.postJson('/api/totp/setup', {}, cookie);
    expect(res.status).toBe(409);
    expect((await json(res)).message).toMatch(/already on/);
    const after = await vault.ctx.database.database
      .prepare('select secret from totp_secrets where user_id = ?')
      .get(user.id);
    expect(after).toEqual(before);
  });

  it('refuses verification without a setup', async () => {
    const user = await freshUser();
    const cookie = await signInReauthenticated(vault, user);
    const res = await vault.postJson('/api/totp/verify', { token: '123456' }, cookie);
    expect(res.status).toBe(400);
    expect((await json(res)).message).toBe('Start the authenticator app setup first.');
  });

  it.each([
    ['/api/totp/setup', {}],
    ['/api/totp/verify', { token: '123456' }],
    ['/api/totp/disable', { token: '123456', password: 'whatever-password' }],
  ])('answers 401 to %s without a session', async (path, body) => {
    const res = await vault.postJson(path, body);
    expect(res.status).toBe(401);
    expect(await json(res)).toHaveProperty('message');
  });
});

describe('signing in with the authenticator app', () => {
  it('yields only a pending login at the password step: no session, and /auth/me is 401', async () => {
    const { user } = await userWithTotp();
    const { res, body, pending } = await passwordStep(user);
    expect(res.status).toBe(200);
    expect(body.requiresTotp).toBe(true);
    expect(body.user).toMatchObject({ username: user.username, totpEnabled: true });
    expect(cookieFrom(res, 'vault_session')).toBeUndefined();
    expect(pending).toBeDefined();
    const header = setCookieHeader(res, 'vault_pending')!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Strict/i);
    expect(header).toMatch(/Max-Age=300/);
    expect(await meStatus(pending!)).toBe(401);
  });

  it('keeps a pending login away from every other route', async () => {
    const { user } = await userWithTotp();
    const { pending } = await passwordStep(user);
    const attempts: [string, string, unknown][] = [
      ['GET', '/api/auth/me', undefined],
      ['GET', '/api/beverages', undefined],
      ['GET', '/api/webauthn/credentials', undefined],
      ['POST', '/api/webauthn/registration/options', {}],
      ['POST', '/api/totp/setup', {}],
      ['POST', '/api/totp/disable', { token: '123456', password: user.password }],
      ['GET', '/api/users', undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res =
        body === undefined
          ? await vault.request(path, { method, cookie: pending! })
          : await vault.postJson(path, body, pending!, method);
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it('completes the sign-in with a code: the user and a fresh session', async () => {
    const { user, secret } = await userWithTotp();
    const { pending } = await passwordStep(user);
    const res = await secondStep(pending, totpCode(secret, clock));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.user).toMatchObject({ id: user.id, username: user.username, totpEnabled: true });
    expect(body.credentials).toEqual([]);
    const session = sessionCookieFrom(res);
    expect(await meStatus(session)).toBe(200);
    expect(clearsCookie(res, 'vault_pending')).toBe(true);
    // The pending login was used up.
    const again = await secondStep(pending, totpCode(secret, clock + 30_000));
    expect(again.status).toBe(401);
    expect(await json(again)).toEqual({ message: EXPIRED });
    nextStep();
  });

  it('rotates the session: a session the browser had before is ended', async () => {
    const { user, secret, cookie: oldSession } = await userWithTotp();
    const res = await vault.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password: user.password }),
      cookie: oldSession,
    });
    expect(await meStatus(oldSession)).toBe(401);
    const pending = cookieFrom(res, 'vault_pending');
    const done = await secondStep(pending, totpCode(secret, clock));
    const fresh = sessionCookieFrom(done);
    expect(fresh).not.toBe(oldSession);
    expect(await meStatus(fresh)).toBe(200);
    nextStep();
  });

  it('refuses a replayed code: a code is accepted once', async () => {
    const { user, secret } = await userWithTotp();
    const code = totpCode(secret, clock);
    const first = await passwordStep(user);
    expect((await secondStep(first.pending, code)).status).toBe(200);
    const second = await passwordStep(user);
    const replay = await secondStep(second.pending, code);
    expect(replay.status).toBe(401);
    expect(await json(replay)).toEqual({ message: 'Invalid authentication code' });
    expect(cookieFrom(replay, 'vault_session')).toBeUndefined();
    // An older code (the previous step, still inside the drift window) is refused too.
    const older = await secondStep(second.pending, totpCode(secret, clock - 30_000));
    expect(older.status).toBe(401);
    // The next step's code still works.
    nextStep();
    expect((await secondStep(second.pending, totpCode(secret, clock))).status).toBe(200);
    nextStep();
  });

  it('signs in with a backup code, and refuses the same backup code the second time', async () => {
    const { user, backupCodes } = await userWithTotp();
    const first = await passwordStep(user);
    const ok = await secondStep(first.pending, backupCodes[0]!, true);
    expect(ok.status).toBe(200);
    expect((await json(ok)).user.username).toBe(user.username);
    expect(await meStatus(sessionCookieFrom(ok))).toBe(200);

    const second = await passwordStep(user);
    const reused = await secondStep(second.pending, backupCodes[0]!, true);
    expect(reused.status).toBe(401);
    expect(await json(reused)).toEqual({ message: 'Invalid backup code' });
    expect(cookieFrom(reused, 'vault_session')).toBeUndefined();
    // Another backup code, typed in lower case without hyphens, works.
    const other = await secondStep(
      second.pending,
      backupCodes[1]!.replace(/-/g, '').toLowerCase(),
      true,
    );
    expect(other.status).toBe(200);
  });

  it('lets exactly one of two concurrent sign-ins with the same code succeed', async () => {
    const { user, secret } = await userWithTotp();
    const a = await passwordStep(user);
    const b = await passwordStep(user);
    const code = totpCode(secret, clock);
    const results = await Promise.all([secondStep(a.pending, code), secondStep(b.pending, code)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    nextStep();
  });

  it('lets exactly one of two concurrent sign-ins with the same backup code succeed', async () => {
    const { user, backupCodes } = await userWithTotp();
    const a = await passwordStep(user);
    const b = await passwordStep(user);
    const results = await Promise.all([
      secondStep(a.pending, backupCodes[3]!, true),
      secondStep(b.pending, backupCodes[3]!, true),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const used = (await vault.ctx.database.database
      .prepare('select count(*) n from backup_codes where user_id = ? and used_at is not null')
      .get(user.id)) as { n: number };
    expect(used.n).toBe(1);
  });

  it('completes one pending login once when it is sent twice at the same time', async () => {
    const { user, secret } = await userWithTotp();
    const { pending } = await passwordStep(user);
    const code = totpCode(secret, clock);
    const results = await Promise.all([secondStep(pending, code), secondStep(pending, code)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    const sessions = (await vault.ctx.database.database
      .prepare('select count(*) n from sessions where user_id = ?')
      .get(user.id)) as { n: number };
    expect(sessions.n).toBe(2); // the setup session and exactly one new one
    nextStep();
  });

  it('throttles wrong codes like passwords (429 with Retry-After)', async () => {
    const { user, secret } = await userWithTotp();
    const { pending } = await passwordStep(user);
    const wrong = wrongTotpCode(secret, clock);
    for (let i = 0; i < 3; i++) {
      const res = await secondStep(pending, wrong);
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ message: 'Invalid authentication code' });
    }
    const blocked = await secondStep(pending, totpCode(secret, clock));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await json(blocked)).message).toMatch(/^Too many failed sign-in attempts/);
    // The password step of that account is blocked as well.
    const password = await vault.postJson('/api/auth/login', {
      username: user.username,
      password: user.password,
    });
    expect(password.status).toBe(429);
    clock += 16 * 60_000;
  });

  it('ends a pending login after five wrong codes', async () => {
    let now = Date.now();
    const lenient = createTestVault({
      now: () => now,
      throttleLimits: { perAccount: 100, perAddress: 1000, windowMs: 60_000 },
    });
    try {
      const user = await lenient.createUser({ username: 'many_tries' });
      const cookie = await signInReauthenticated(lenient, user);
      const { secret } = await json(await lenient.postJson('/api/totp/setup', {}, cookie));
      await lenient.postJson('/api/totp/verify', { token: totpCode(secret, now) }, cookie);
      now += 30_000;
      const login = await lenient.postJson('/api/auth/login', {
        username: user.username,
        password: user.password,
      });
      const pending = cookieFrom(login, 'vault_pending');
      const wrong = wrongTotpCode(secret, now);
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await lenient.postJson(
          '/api/auth/login/totp',
          { token: wrong, backup: false },
          pending,
        );
        statuses.push(last.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      expect(await json(last!)).toEqual({ message: 'Too many failed attempts. Sign in again.' });
      expect(clearsCookie(last!, 'vault_pending')).toBe(true);
      const right = await lenient.postJson(
        '/api/auth/login/totp',
        { token: totpCode(secret, now), backup: false },
        pending,
      );
      expect(right.status).toBe(401);
      expect(await json(right)).toEqual({ message: EXPIRED });
    } finally {
      await lenient.close();
    }
  });

  it('lets a pending login expire after five minutes', async () => {
    const { user, secret } = await userWithTotp();
    const { pending } = await passwordStep(user);
    clock += 5 * 60_000 + 1000;
    const res = await secondStep(pending, totpCode(secret, clock));
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: EXPIRED });
    expect(clearsCookie(res, 'vault_pending')).toBe(true);
    expect(cookieFrom(res, 'vault_session')).toBeUndefined();
  });

  it('needs the browser that passed the password step: no pending cookie, no sign-in', async () => {
    const { user, secret } = await userWithTotp();
    await passwordStep(user);
    const res = await secondStep(undefined, totpCode(secret, clock));
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: EXPIRED });
    const forged = await secondStep('vault_pending=made-up-token', totpCode(secret, clock));
    expect(forged.status).toBe(401);
  });

  it('ends the pending login at sign-out', async () => {
    const { user, secret } = await userWithTotp();
    const { pending } = await passwordStep(user);
    const out = await vault.request('/api/auth/logout', { method: 'POST', cookie: pending! });
    expect(out.status).toBe(204);
    const res = await secondStep(pending, totpCode(secret, clock));
    expect(res.status).toBe(401);
  });

  it('answers 400 to a second step without a code', async () => {
    const res = await vault.postJson('/api/auth/login/totp', { backup: false });
    expect(res.status).toBe(400);
    expect(await json(res)).toHaveProperty('message');
  });
});

describe('turning the authenticator app off', () => {
  it('needs the right password and a current code', async () => {
    const { user, cookie, secret } = await userWithTotp();
    const wrongPassword = await vault.postJson(
      '/api/totp/disable',
      { token: totpCode(secret, clock), password: 'not-the-password' },
      cookie,
    );
    expect(wrongPassword.status).toBe(400);
    expect(await json(wrongPassword)).toEqual({
      message: 'The password or the authentication code is not correct',
    });
    const wrongCode = await vault.postJson(
      '/api/totp/disable',
      { token: wrongTotpCode(secret, clock), password: user.password },
      cookie,
    );
    expect(wrongCode.status).toBe(400);
    const me = await json(await vault.request('/api/auth/me', { cookie }));
    expect(me.user.totpEnabled).toBe(true);

    const res = await vault.postJson(
      '/api/totp/disable',
      { token: totpCode(secret, clock), password: user.password },
      cookie,
    );
    expect(res.status).toBe(200);
    expect((await json(res)).user.totpEnabled).toBe(false);
    const rows = (await vault.ctx.database.database
      .prepare(
        'select (select count(*) from totp_secrets where user_id = ?) s, (select count(*) from backup_codes where user_id = ?) b',
      )
      .get(user.id, user.id)) as { s: number; b: number };
    expect(rows).toEqual({ s: 0, b: 0 });
    // Signing in is a single step again.
    const { body } = await passwordStep(user);
    expect(body.requiresTotp).toBeUndefined();
    expect(body.user.totpEnabled).toBe(false);
    nextStep();
  });

  it('refuses a code already used to sign in', async () => {
    const { user, secret } = await userWithTotp();
    const code = totpCode(secret, clock);
    const { pending } = await passwordStep(user);
    const signedIn = await secondStep(pending, code);
    const session = sessionCookieFrom(signedIn);
    const res = await vault.postJson(
      '/api/totp/disable',
      { token: code, password: user.password },
      session,
    );
    expect(res.status).toBe(400);
    const me = await json(await vault.request('/api/auth/me', { cookie: session }));
    expect(me.user.totpEnabled).toBe(true);
    nextStep();
  });

  it('refuses to turn off an app that is not on (409)', async () => {
    const user = await freshUser();
    const cookie = await signInReauthenticated(vault, user);
    const res = await vault.postJson(
      '/api/totp/disable',
      { token: '123456', password: user.password },
      cookie,
    );
    expect(res.status).toBe(409);
    expect(await json(res)).toEqual({ message: 'The authenticator app is not on.' });
  });

  it('checks the code format before anything else', async () => {
    const { user, cookie } = await userWithTotp();
    const res = await vault.postJson(
      '/api/totp/disable',
      { token: '12ab', password: user.password },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: CODE_FORMAT });
  });
});
