import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createContext } from '../../src/context.ts';
import { loadConfig } from '../../src/config.ts';
import { generateKeyPair } from '../../federation/keys.ts';
import { json } from '../helpers/json.ts';
import { testDatabase } from '../helpers/postgres.ts';
import { TEST_RSA_KEY_BITS } from '../helpers/test-keys.ts';
import { createTestVault, tempConfig, type TestVault } from '../helpers/vault.ts';

const AP = 'application/activity+json';
const JRD = 'application/jrd+json';

let vault: TestVault;

beforeAll(async () => {
  vault = createTestVault();
  const alice = await vault.createUser({
    username: 'alice',
    fullName: 'Alice <Archer>',
    activityPubEnabled: true,
  });
  await vault.ctx.users.update(alice.id, {
    bio: 'Peat & smoke <script>alert(1)</script>\nIslay first.',
    avatarPath: 'uploads/avatars/alice.webp',
  });
  await vault.createUser({ username: 'bob', fullName: 'Bob Private' });
});
afterAll(() => vault.close());

const host = () => new URL(vault.origin).host;

async function getJson(pathname: string, accept: string) {
  const res = await vault.request(pathname, { headers: { accept } });
  return { res, body: res.ok ? await json(res) : undefined };
}

async function fetchActor(username: string) {
  const { res, body } = await getJson(`/users/${username}`, AP);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/activity+json');
  return body;
}

describe('WebFinger', () => {
  it('resolves acct:alice@<host of VAULT_ORIGIN> to a self link that serves her Person actor', async () => {
    expect(host()).toBe('localhost:8080');
    const finger = await getJson(`/.well-known/webfinger?resource=acct:alice@${host()}`, JRD);
    expect(finger.res.status).toBe(200);
    expect(finger.body.subject).toBe(`acct:alice@${host()}`);
    expect(finger.body.aliases).toContain(`${vault.origin}/users/alice`);
    const self = finger.body.links.find((link: { rel: string }) => link.rel === 'self');
    expect(self).toEqual({ rel: 'self', type: AP, href: `${vault.origin}/users/alice` });

    const actor = await fetchActor(new URL(self.href).pathname.split('/').pop()!);
    expect(actor.type).toBe('Person');
    expect(actor.id).toBe(self.href);
    expect(actor.preferredUsername).toBe('alice');
  });

  it('treats the handle case-insensitively and also accepts the actor URL as resource', async () => {
    const upper = await getJson(`/.well-known/webfinger?resource=acct:ALICE@${host()}`, JRD);
    expect(upper.res.status).toBe(200);
    const byUrl = await getJson(
      `/.well-known/webfinger?resource=${encodeURIComponent(`${vault.origin}/users/alice`)}`,
      JRD,
    );
    expect(byUrl.res.status).toBe(200);
    for (const body of [upper.body, byUrl.body]) {
      expect(body.links).toContainEqual({
        rel: 'self',
        type: AP,
        href: `${vault.origin}/users/alice`,
      });
    }
  });

  it('answers 404 for a user without activityPubEnabled, an unknown user, and another host', async () => {
    for (const resource of [
      `acct:bob@${host()}`,
      `acct:nobody@${host()}`,
      'acct:alice@elsewhere.example',
    ]) {
      const { res } = await getJson(`/.well-known/webfinger?resource=${resource}`, JRD);
      expect(res.status, resource).toBe(404);
    }
  });

  it('answers 404, never the web client, when a lookup sends no Accept header', async () => {
    for (const path of [
      `/.well-known/webfinger?resource=acct:bob@${host()}`,
      '/users/bob/outbox',
      '/users/bob/followers',
    ]) {
      const res = await vault.request(path);
      expect([404, 406], path).toContain(res.status);
      expect(res.headers.get('content-type'), path).toContain('application/json');
    }
  });
});

describe('the actor document', () => {
  it('describes alice as a Person with every field the fediverse needs', async () => {
    const actor = await fetchActor('alice');
    const o = vault.origin;
    expect(actor).toMatchObject({
      id: `${o}/users/alice`,
      type: 'Person',
      preferredUsername: 'alice',
      name: 'Alice <Archer>',
      summary: '<p>Peat &amp; smoke &lt;script&gt;alert(1)&lt;/script&gt;<br>Islay first.</p>',
      url: `${o}/users/alice`,
      inbox: `${o}/users/alice/inbox`,
      outbox: `${o}/users/alice/outbox`,
      followers: `${o}/users/alice/followers`,
      following: `${o}/users/alice/following`,
      endpoints: { sharedInbox: `${o}/inbox` },
      icon: { type: 'Image', url: `${o}/uploads/avatars/alice.webp`, mediaType: 'image/webp' },
      discoverable: false,
      manuallyApprovesFollowers: false,
    });
    const alice = (await vault.ctx.users.findByUsername('alice'))!;
    expect(new Date(actor.published).getTime()).toBe(alice.createdAt.getTime());
  });

  it('publishes an RSA publicKey and RSA + Ed25519 Multikey assertion methods that match the stored keys', async () => {
    const actor = await fetchActor('alice');
    expect(actor.publicKey).toMatchObject({
      id: `${vault.origin}/users/alice#main-key`,
      owner: `${vault.origin}/users/alice`,
    });
    const rsa = crypto.createPublicKey(actor.publicKey.publicKeyPem);
    expect(rsa.asymmetricKeyType).toBe('rsa');
    expect(rsa.asymmetricKeyDetails?.modulusLength).toBe(Number(TEST_RSA_KEY_BITS));

    const methods = [actor.assertionMethod].flat();
    expect(methods).toHaveLength(2);
    for (const method of methods) {
      expect(method).toMatchObject({ type: 'Multikey', controller: `${vault.origin}/users/alice` });
    }
    // Decode each Multikey (base58btc multibase, multicodec prefix) and compare it with the
    // stored public keys: 0xed01 = Ed25519 raw key, 0x1205 = RSA public key in PKCS#1 DER.
    const alice = (await vault.ctx.users.findByUsername('alice'))!;
    const stored = Object.fromEntries(
      (
        await vault.ctx.database.database
          .prepare<{
            type: string;
            public_key_jwk: string;
          }>('SELECT type, public_key_jwk FROM actor_keys WHERE user_id = ?')
          .all(alice.id)
      ).map((row) => [row.type, JSON.parse(row.public_key_jwk)]),
    );
    expect(Object.keys(stored).sort()).toEqual(['Ed25519', 'RSASSA-PKCS1-v1_5']);
    const decoded = methods.map((m: { publicKeyMultibase: string }) =>
      decodeBase58btc(m.publicKeyMultibase),
    );
    const ed = decoded.find((bytes: Buffer) => bytes[0] === 0xed && bytes[1] === 0x01);
    const rsaMulti = decoded.find((bytes: Buffer) => bytes[0] === 0x85 && bytes[1] === 0x24);
    expect(ed?.subarray(2).toString('base64url')).toBe(stored['Ed25519'].x);
    const storedRsaPem = crypto
      .createPublicKey({ key: stored['RSASSA-PKCS1-v1_5'], format: 'jwk' })
      .export({ type: 'spki', format: 'pem' });
    expect(
      crypto
        .createPublicKey({ key: rsaMulti!.subarray(2), format: 'der', type: 'pkcs1' })
        .export({ type: 'spki', format: 'pem' }),
    ).toBe(storedRsaPem);
    // The publicKey (what Mastodon uses) is the stored RSA key, not a fresh one.
    expect(rsa.export({ type: 'spki', format: 'pem' })).toBe(storedRsaPem);
  });

  it('serves the same keys on every fetch', async () => {
    const first = await fetchActor('alice');
    const second = await fetchActor('alice');
    expect(second.publicKey.publicKeyPem).toBe(first.publicKey.publicKeyPem);
    expect(second.assertionMethod).toEqual(first.assertionMethod);
  });

  it('builds ids from VAULT_ORIGIN, whatever Host the request came with', async () => {
    const res = await vault.app.request('http://attacker.example:1234/users/alice', {
      headers: { accept: AP },
    });
    expect(res.status).toBe(200);
    const actor = await json(res);
    expect(actor.id).toBe(`${vault.origin}/users/alice`);
    expect(actor.inbox).toBe(`${vault.origin}/users/alice/inbox`);
  });

  it('answers 404 to an actor fetch for a user without activityPubEnabled or an unknown user', async () => {
    for (const username of ['bob', 'nobody', 'ALICE']) {
      const { res } = await getJson(`/users/${username}`, AP);
      expect(res.status, username).toBe(404);
    }
    const bob = (await vault.ctx.users.findByUsername('bob'))!;
    const keys = await vault.ctx.database.database
      .prepare<{ n: number }>('SELECT count(*) AS n FROM actor_keys WHERE user_id = ?')
      .get(bob.id);
    expect(keys!.n).toBe(0);
  });

  it('has empty outbox, followers and following collections, and none for a private user', async () => {
    for (const name of ['outbox', 'followers', 'following']) {
      const { res, body } = await getJson(`/users/alice/${name}`, AP);
      expect(res.status, name).toBe(200);
      expect(body).toMatchObject({
        id: `${vault.origin}/users/alice/${name}`,
        type: 'OrderedCollection',
        totalItems: 0,
      });
      const bobs = await getJson(`/users/bob/${name}`, AP);
      expect(bobs.res.status, `bob ${name}`).toBe(404);
    }
  });

  it('leaves a browser asking for /users/alice to the client', async () => {
    const res = await vault.request('/users/alice', { headers: { accept: 'text/html' } });
    expect(res.headers.get('content-type') ?? '').not.toContain('activity+json');
  });
});

describe('actor keys across restarts', () => {
  it('are generated once, stored, and the same after the federation is re-created on the same database', async () => {
    // On PostgreSQL the same database (made by the first start), as the same file on SQLite.
    const postgres = testDatabase();
    const config = tempConfig({
      VAULT_ORIGIN: 'https://vault.example.com',
      ...(postgres ? { VAULT_DATABASE_URL: postgres.url } : {}),
    });
    let starts = 0;
    try {
      const fetchKeys = async () => {
        const first = starts++ === 0;
        const ctx = createContext(
          config,
          first && postgres ? { beforeMigrating: postgres.create } : {},
        );
        try {
          if (!(await ctx.users.findByUsername('carol'))) {
            const carol = await ctx.users.insert({
              username: 'carol',
              fullName: 'Carol',
              email: 'carol@example.com',
              role: 'USER',
              passwordHash: 'not-used',
            });
            await ctx.users.update(carol.id, { activityPubEnabled: true });
          }
          const res = await createApp(ctx).request('https://vault.example.com/users/carol', {
            headers: { accept: AP },
          });
          expect(res.status).toBe(200);
          const actor = await json(res);
          expect(actor.id).toBe('https://vault.example.com/users/carol');
          return { pem: actor.publicKey.publicKeyPem, methods: actor.assertionMethod };
        } finally {
          await ctx.close();
        }
      };
      const before = await fetchKeys();
      const after = await fetchKeys();
      expect(after.pem).toBe(before.pem);
      expect(after.methods).toEqual(before.methods);
    } finally {
      await postgres?.drop();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Decodes a multibase base58btc string ('z' + base58, Bitcoin alphabet). */
function decodeBase58btc(text: string): Buffer {
  expect(text[0]).toBe('z');
  let value = 0n;
  for (const ch of text.slice(1)) {
    const digit = BASE58.indexOf(ch);
    expect(digit).toBeGreaterThanOrEqual(0);
    value = value * 58n + BigInt(digit);
  }
  const hex = value.toString(16);
  const bytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const leadingZeros = /^1*/.exec(text.slice(1))![0].length;
  return Buffer.concat([Buffer.alloc(leadingZeros), bytes]);
}

describe('the size of actor keys', () => {
  it('is 4096 bits unless VAULT_RSA_KEY_BITS says 2048 or 3072', async () => {
    expect(loadConfig({}).rsaKeyBits).toBe(4096);
    expect(loadConfig({ VAULT_RSA_KEY_BITS: '3072' }).rsaKeyBits).toBe(3072);
    expect(() => loadConfig({ VAULT_RSA_KEY_BITS: '1024' })).toThrow(
      /VAULT_RSA_KEY_BITS: must be 2048, 3072 or 4096/,
    );
    const pair = await generateKeyPair('RSASSA-PKCS1-v1_5', 4096);
    const key = crypto.createPublicKey({
      key: pair.publicKeyJwk as crypto.JsonWebKey,
      format: 'jwk',
    });
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(4096);
  });
});
