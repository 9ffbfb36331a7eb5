import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookedUpActorSchema } from '../../contract/follows.ts';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createTestVault, sessionCookieFrom } from '../helpers/vault.ts';

/**
 * The follow dialog's lookup of a handle on a host that serves plain http only (a LAN setup, a
 * test's fake): with private addresses allowed the vault tries http once https cannot connect;
 * a host that answers neither is named with the schemes tried. Without that setting the
 * fediverse is https only, and the message says so.
 */

let vault: TestServer;
let plain: FakeRemote;
let cookie: string;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  await vault.createUser({ username: 'hana', password: 'hana-password', activityPubEnabled: true });
  plain = await startFakeRemote(); // http, no certificate
  plain.addAccount('lan', { name: 'On the LAN' });
  const res = await fetch(`${vault.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: vault.url },
    body: JSON.stringify({ username: 'hana', password: 'hana-password' }),
  });
  expect(res.status).toBe(200);
  cookie = sessionCookieFrom(res);
});
afterAll(async () => {
  await Promise.all([vault?.close(), plain?.close()]);
});

const lookup = (query: string) =>
  fetch(`${vault.url}/api/users/lookup`, {
    method: 'POST',
    headers: { cookie, origin: vault.url, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });

describe('looking up a handle on an http-only host, private addresses allowed', () => {
  it('finds the account over http after https fails to connect', async () => {
    expect(plain.origin.startsWith('http://')).toBe(true);
    const res = await lookup(`@${plain.handle('lan')}`);
    expect(res.status).toBe(200);
    const { actor } = (await res.json()) as { actor: unknown };
    expect(lookedUpActorSchema.parse(actor)).toMatchObject({
      actorUri: plain.account('lan').id,
      handle: `@lan@${plain.host}`,
      displayName: 'On the LAN',
    });
  });

  it('names both schemes when the host answers neither', async () => {
    const res = await lookup('@someone@127.0.0.1:1');
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      message: 'Could not reach 127.0.0.1:1 over https or http.',
    });
  });
});

describe('looking up a handle, private addresses not allowed', () => {
  it('tries https only and says so when the host cannot be reached', async () => {
    const strict = createTestVault({ allowPrivateAddress: false });
    try {
      await strict.createUser({ username: 'ines', activityPubEnabled: true });
      const session = await strict.login('ines', 'ines-password');
      // .invalid never resolves (RFC 6761).
      const res = await strict.postJson(
        '/api/users/lookup',
        { query: '@someone@unreachable.invalid' },
        session,
      );
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        message: 'Could not reach unreachable.invalid over https.',
      });
      // A loopback host is still refused before any request.
      const local = await strict.postJson(
        '/api/users/lookup',
        { query: '@x@127.0.0.1:1' },
        session,
      );
      expect(local.status).toBe(400);
    } finally {
      await strict.close();
    }
  });
});
