import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';
import {
  AP,
  parseCavage,
  startFakeRemote,
  verifyCavage,
  type FakeRemote,
} from './plumbing-remote.ts';

let vault: TestVault;
let remote: FakeRemote;

beforeAll(async () => {
  vault = createTestVault({ allowPrivateAddress: true });
  await vault.createUser({ username: 'alice', activityPubEnabled: true });
  remote = await startFakeRemote();
});
afterAll(async () => {
  await vault.close();
  await remote.close();
});

async function instanceActor() {
  const res = await vault.request('/users/instance.actor', { headers: { accept: AP } });
  expect(res.status).toBe(200);
  return json(res);
}

function delivery(pathname: string, activity: object, actorPath = '/actor') {
  const url = new URL(pathname, vault.origin).href;
  const body = JSON.stringify(activity);
  const headers = remote.cavageHeaders(url, body, actorPath);
  return new Request(url, { method: 'POST', headers, body });
}

function follow(n: number, actorPath = '/actor') {
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${remote.origin}/follows/${n}`,
    type: 'Follow',
    actor: `${remote.origin}${actorPath}`,
    object: `${vault.origin}/users/alice`,
  };
}

describe('the instance actor', () => {
  it('is an Application at /users/instance.actor with its own RSA key, found by WebFinger', async () => {
    const actor = await instanceActor();
    expect(actor).toMatchObject({
      id: `${vault.origin}/users/instance.actor`,
      type: 'Application',
      preferredUsername: 'instance.actor',
      inbox: `${vault.origin}/users/instance.actor/inbox`,
      outbox: `${vault.origin}/users/instance.actor/outbox`,
      followers: `${vault.origin}/users/instance.actor/followers`,
      following: `${vault.origin}/users/instance.actor/following`,
      endpoints: { sharedInbox: `${vault.origin}/inbox` },
      publicKey: {
        id: `${vault.origin}/users/instance.actor#main-key`,
        owner: `${vault.origin}/users/instance.actor`,
      },
    });
    expect(actor.publicKey.publicKeyPem).toContain('BEGIN PUBLIC KEY');
    const alice = await json(await vault.request('/users/alice', { headers: { accept: AP } }));
    expect(alice.publicKey.publicKeyPem).not.toBe(actor.publicKey.publicKeyPem);

    const host = new URL(vault.origin).host;
    const finger = await vault.request(
      `/.well-known/webfinger?resource=acct:instance.actor@${host}`,
      { headers: { accept: 'application/jrd+json' } },
    );
    expect(finger.status).toBe(200);
    expect((await json(finger)).links).toContainEqual({
      rel: 'self',
      type: AP,
      href: `${vault.origin}/users/instance.actor`,
    });
  });

  it('keeps its stored key when the vault starts again on the same database', async () => {
    const before = (await instanceActor()).publicKey.publicKeyPem;
    const ctx = createContext(vault.config, { allowPrivateAddress: true });
    try {
      const res = await createApp(ctx).request(`${vault.origin}/users/instance.actor`, {
        headers: { accept: AP },
      });
      expect((await json(res)).publicKey.publicKeyPem).toBe(before);
    } finally {
      await ctx.close();
    }
    const other = createTestVault();
    try {
      const res = await other.request('/users/instance.actor', { headers: { accept: AP } });
      expect((await json(res)).publicKey.publicKeyPem).not.toBe(before);
    } finally {
      await other.close();
    }
  });

  it('signs the key fetch for a delivery to the shared inbox, so an authorized-fetch server answers it', async () => {
    const instance = await instanceActor();
    // The fake answers its actor (and so its key) only to a GET signed by the vault's instance
    // actor, as Mastodon in secure mode and GoToSocial do.
    remote.serveActor(
      '/actor',
      (req) =>
        parseCavage(req.headers.signature as string)?.keyId === instance.publicKey.id &&
        verifyCavage(req, instance.publicKey.publicKeyPem),
    );
    const res = await vault.app.request(delivery('/inbox', follow(1)));
    expect(res.status).toBe(202);
    const keyFetches = remote.received.filter((r) => r.method === 'GET' && r.path === '/actor');
    expect(keyFetches).toHaveLength(1);
    expect(parseCavage(keyFetches[0]!.headers.signature as string)?.keyId).toBe(
      instance.publicKey.id,
    );
  });

  it('refuses the delivery (401) when the remote refuses to give its key', async () => {
    remote.serveActor('/refusing', () => false);
    const res = await vault.app.request(delivery('/inbox', follow(2, '/refusing'), '/refusing'));
    expect(res.status).toBe(401);
    const keyFetches = remote.received.filter((r) => r.path === '/refusing');
    expect(keyFetches.length).toBeGreaterThan(0);
    for (const r of keyFetches) expect(r.headers.signature).toBeDefined();
  });
});
