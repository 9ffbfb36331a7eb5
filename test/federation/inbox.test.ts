import type { webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRequest } from '@fedify/fedify';
import { configure, reset, type LogRecord } from '@logtape/logtape';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

const AP = 'application/activity+json';

async function rsaKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as webcrypto.CryptoKeyPair;
}

/**
 * A fake remote fediverse server on loopback: one actor (with an RSA key) whose document it
 * serves, so the vault can fetch the key that signed a delivery.
 */
async function startRemote() {
  const keys = await rsaKeyPair();
  const spki = Buffer.from(await crypto.subtle.exportKey('spki', keys.publicKey));
  const pem = `-----BEGIN PUBLIC KEY-----\n${spki.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PUBLIC KEY-----\n`;
  let origin = '';
  const server = http.createServer((req, res) => {
    if (req.url === '/actor') {
      res.writeHead(200, { 'content-type': AP });
      res.end(
        JSON.stringify({
          '@context': ['https://www.w3.org/ns/activitystreams', 'https://w3id.org/security/v1'],
          id: `${origin}/actor`,
          type: 'Person',
          preferredUsername: 'remote',
          inbox: `${origin}/inbox`,
          publicKey: {
            id: `${origin}/actor#main-key`,
            owner: `${origin}/actor`,
            publicKeyPem: pem,
          },
        }),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    actorId: `${origin}/actor`,
    keyId: new URL(`${origin}/actor#main-key`),
    privateKey: keys.privateKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let vault: TestVault;
let remote: Awaited<ReturnType<typeof startRemote>>;
let sequence = 0;
const inboxLog: LogRecord[] = [];

beforeAll(async () => {
  // Capture what the inbox listener logs, to see that a verified activity reached it.
  await configure({
    reset: true,
    sinks: { capture: (record) => inboxLog.push(record) },
    loggers: [
      { category: ['vault', 'federation', 'inbox'], lowestLevel: 'info', sinks: ['capture'] },
      { category: ['logtape', 'meta'], lowestLevel: 'warning', sinks: [] },
    ],
  });
  vault = createTestVault({ allowPrivateAddress: true });
  await vault.createUser({ username: 'alice', activityPubEnabled: true });
  await vault.createUser({ username: 'bob' });
  remote = await startRemote();
});
afterAll(async () => {
  await vault.close();
  await remote.close();
  await reset();
});

function follow(object: string) {
  sequence += 1;
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${remote.origin}/follows/${sequence}`,
    type: 'Follow',
    actor: remote.actorId,
    object,
  };
}

function inboxRequest(pathname: string, activity: unknown): Request {
  return new Request(new URL(pathname, vault.origin), {
    method: 'POST',
    headers: { 'content-type': AP, accept: AP },
    body: JSON.stringify(activity),
  });
}

async function queued(): Promise<number> {
  const row = await vault.ctx.database.database
    .prepare<{ n: number }>('SELECT count(*) AS n FROM federation_queue')
    .get();
  return row!.n;
}

describe('inboxes', () => {
  it('refuse an unsigned POST to a user inbox and to the shared inbox with 401, queueing nothing', async () => {
    for (const pathname of ['/users/alice/inbox', '/inbox']) {
      const res = await vault.app.request(
        inboxRequest(pathname, follow(`${vault.origin}/users/alice`)),
      );
      expect(res.status, pathname).toBe(401);
    }
    expect(await queued()).toBe(0);
  });

  it('refuse a POST signed with a key that is not the sending actor’s', async () => {
    const { privateKey: otherKey } = await rsaKeyPair();
    const forged = await signRequest(
      inboxRequest('/users/alice/inbox', follow(`${vault.origin}/users/alice`)),
      otherKey,
      remote.keyId,
    );
    const res = await vault.app.request(forged);
    expect(res.status).toBe(401);
    expect(await queued()).toBe(0);
  });

  it('accept a correctly signed activity (202), queue it, and let the worker take it off the queue', async () => {
    const signed = await signRequest(
      inboxRequest('/users/alice/inbox', follow(`${vault.origin}/users/alice`)),
      remote.privateKey,
      remote.keyId,
    );
    const res = await vault.app.request(signed);
    expect(res.status).toBe(202);
    expect(await queued()).toBe(1);

    const sharedSigned = await signRequest(
      inboxRequest('/inbox', follow(`${vault.origin}/users/alice`)),
      remote.privateKey,
      remote.keyId,
    );
    expect((await vault.app.request(sharedSigned)).status).toBe(202);
    expect(await queued()).toBe(2);

    vault.ctx.federation.startQueue();
    const started = Date.now();
    while ((await queued()) > 0 && Date.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await queued()).toBe(0);
    const received = inboxLog.map((record) => record.properties);
    // Handled concurrently, so in either order.
    expect(received).toHaveLength(2);
    expect(received).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'Follow', actor: remote.actorId, recipient: 'alice' }),
        expect.objectContaining({
          type: 'Follow',
          actor: remote.actorId,
          recipient: 'the shared inbox',
        }),
      ]),
    );
  });

  it('answer 404 for the inbox of a user without activityPubEnabled', async () => {
    const signed = await signRequest(
      inboxRequest('/users/bob/inbox', follow(`${vault.origin}/users/bob`)),
      remote.privateKey,
      remote.keyId,
    );
    const res = await vault.app.request(signed);
    expect(res.status).toBe(404);
  });

  it('cannot verify a sender on a private address unless private addresses are allowed', async () => {
    const guarded = createTestVault();
    try {
      await guarded.createUser({ username: 'alice', activityPubEnabled: true });
      const signed = await signRequest(
        new Request(new URL('/users/alice/inbox', guarded.origin), {
          method: 'POST',
          headers: { 'content-type': AP, accept: AP },
          body: JSON.stringify(follow(`${guarded.origin}/users/alice`)),
        }),
        remote.privateKey,
        remote.keyId,
      );
      // Fedify's SSRF guard refuses to fetch the key from 127.0.0.1: the signature is unverifiable.
      expect((await guarded.app.request(signed)).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});
