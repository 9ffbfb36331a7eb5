import { afterEach, describe, expect, it } from 'vitest';
import { passwordVerifications } from '../../src/auth/passwords.ts';
import { DEFAULT_LIMITS, throttledAddress, type ThrottleLimits } from '../../src/auth/throttle.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, sessionCookieFrom, type TestVault } from '../helpers/vault.ts';

const HOME = '198.51.100.1';
const TOO_MANY = /^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/;

let vault: TestVault;
let now = Date.parse('2026-03-01T12:00:00Z');
afterEach(() => vault.close());

/** A vault that believes X-Forwarded-For, so that tests can sign in from many addresses. */
function open(throttleLimits: ThrottleLimits = DEFAULT_LIMITS) {
  vault = createTestVault({
    throttleLimits,
    now: () => now,
    env: { VAULT_TRUST_PROXY: 'true' },
  });
  return vault;
}

async function login(username: string, password: string, address: string) {
  return vault.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ username, password }),
  });
}

/** Runs `work` and answers how many password hashes it verified. */
async function verificationsDuring(work: () => Promise<unknown>): Promise<number> {
  const before = passwordVerifications.count;
  await work();
  return passwordVerifications.count - before;
}

describe('an attack on one account', () => {
  it('does not keep the owner out: the right password from another address signs in', async () => {
    open();
    const admin = await vault.createUser({ username: 'admin', role: 'ADMIN' });
    for (let i = 0; i < 5; i++) {
      expect((await login('admin', 'wrong-guess', '203.0.113.9')).status).toBe(401);
    }
    // The attacker's address is stopped, even with the right password...
    const blocked = await login('admin', admin.password, '203.0.113.9');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await json(blocked)).message).toMatch(TOO_MANY);
    // ...the owner's is not.
    expect((await login('admin', admin.password, HOME)).status).toBe(200);
  });

  it('stops one address trying many accounts, and only that address', async () => {
    open();
    const alice = await vault.createUser({ username: 'alice' });
    for (let i = 0; i < 20; i++) {
      expect((await login(`user_${i}`, 'wrong-guess', '203.0.113.9')).status).toBe(401);
    }
    expect((await login('alice', alice.password, '203.0.113.9')).status).toBe(429);
    expect((await login('alice', alice.password, HOME)).status).toBe(200);
  });

  it('caps the failed guesses per account, except from an address it signed in from before', async () => {
    open({ perAccount: 2, perAddress: 100, windowMs: 60_000, accountCeiling: 6 });
    const owner = await vault.createUser({ username: 'owner' });
    expect((await login('owner', owner.password, HOME)).status).toBe(200);
    const guesses = await verificationsDuring(async () => {
      for (let i = 0; i < 10; i++) {
        // Two guesses from each address, from ever new addresses, spread over the hour.
        now += 60_000;
        await login('owner', 'wrong-guess', `203.0.113.${Math.floor(i / 2)}`);
      }
    });
    expect(guesses).toBe(6);
    const fresh = await login('owner', 'wrong-guess', '192.0.2.77');
    expect(fresh.status).toBe(429);
    expect((await json(fresh)).message).toMatch(TOO_MANY);
    // The owner's own address is exempt from the ceiling.
    expect((await login('owner', owner.password, HOME)).status).toBe(200);
    // An hour after the first failures, new addresses may try again.
    now += 60 * 60_000;
    expect((await login('owner', owner.password, '192.0.2.78')).status).toBe(200);
  });
});

describe('concurrent guesses', () => {
  it('buy nothing: 100 parallel wrong passwords verify at most five', async () => {
    open();
    const admin = await vault.createUser({ username: 'admin', role: 'ADMIN' });
    let statuses: number[] = [];
    const checked = await verificationsDuring(async () => {
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => login('admin', 'wrong-guess', '203.0.113.9')),
      );
      statuses = answers.map((r) => r.status);
    });
    expect(checked).toBeLessThanOrEqual(DEFAULT_LIMITS.perAccount);
    expect(statuses.filter((s) => s === 401)).toHaveLength(checked);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - checked);
    expect((await login('admin', admin.password, HOME)).status).toBe(200);
  });

  it('from many addresses verify at most the per-account ceiling', async () => {
    open({ perAccount: 5, perAddress: 20, windowMs: 60_000, accountCeiling: 10 });
    await vault.createUser({ username: 'admin', role: 'ADMIN' });
    const checked = await verificationsDuring(() =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) => login('admin', 'wrong-guess', `203.0.113.${i}`)),
      ),
    );
    expect(checked).toBeLessThanOrEqual(10);
  });

  it('at the password change and the password re-check verify at most five', async () => {
    open();
    const bob = await vault.createUser({ username: 'bob' });
    const cookie = sessionCookieFrom(await login('bob', bob.password, HOME));
    const change = async () => {
      const body = new FormData();
      body.append('currentPassword', 'wrong-guess');
      body.append('newPassword', 'a-brand-new-password');
      const headers = { 'x-forwarded-for': '203.0.113.9' };
      return vault.request('/api/users/me', { method: 'PATCH', body, cookie, headers });
    };
    const reauthenticate = async () =>
      vault.request('/api/auth/reauthenticate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.10' },
        body: JSON.stringify({ password: 'wrong-guess' }),
        cookie,
      });
    for (const attempt of [change, reauthenticate]) {
      const checked = await verificationsDuring(() =>
        Promise.all(Array.from({ length: 50 }, attempt)),
      );
      expect(checked).toBeLessThanOrEqual(DEFAULT_LIMITS.perAccount);
    }
    expect((await vault.request('/api/auth/me', { cookie })).status).toBe(200);
  });
});

describe('the address a count is kept for', () => {
  it('is the /64 network for IPv6 and the plain address for IPv4', () => {
    expect(throttledAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(throttledAddress('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(throttledAddress('2001:db8::7')).toBe('2001:db8:0:0::/64');
    expect(throttledAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttledAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(throttledAddress('203.0.113.9')).toBe('203.0.113.9');
  });

  it('lets one IPv6 network not escape the limits by changing its address', async () => {
    open();
    const alice = await vault.createUser({ username: 'alice' });
    for (let i = 0; i < 5; i++) {
      expect((await login('alice', 'wrong-guess', `2001:db8:5:6::${i + 1}`)).status).toBe(401);
    }
    expect((await login('alice', alice.password, '2001:db8:5:6::99')).status).toBe(429);
    expect((await login('alice', alice.password, '2001:db8:5:7::1')).status).toBe(200);
  });
});
