import crypto from 'node:crypto';
import { UrlError } from '@fedify/fedify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedDocumentLoader, OUTBOUND_LIMITS } from '../../federation/outbound.ts';
import { json } from '../helpers/json.ts';
import {
  AP,
  parseCavage,
  startBareFederation,
  startFakeRemote,
  verifyCavage,
  type FakeRemote,
} from './plumbing-remote.ts';

type Bare = Awaited<ReturnType<typeof startBareFederation>>;

let vault: Bare;
let remote: FakeRemote;
let alicePem = '';

beforeAll(async () => {
  remote = await startFakeRemote();
  vault = await startBareFederation();
  const actor = await json(
    await vault.fetch(new Request(`${vault.origin}/users/alice`, { headers: { accept: AP } })),
  );
  alicePem = actor.publicKey.publicKeyPem;
  // Answers only GETs signed with alice's key, as a server in authorized-fetch mode would.
  remote.serveActor('/users/bob', (req) => verifyCavage(req, alicePem));
  const big = JSON.stringify({ id: `${remote.origin}/big`, padding: 'x'.repeat(2 * 1024 * 1024) });
  remote.routes.set(
    '/big',
    (_req, res) => void res.writeHead(200, { 'content-type': AP }).end(big),
  );
  remote.routes.set('/big-chunked', (_req, res) => {
    res.writeHead(200, { 'content-type': AP, 'transfer-encoding': 'chunked' });
    const chunk = 'x'.repeat(64 * 1024);
    let sent = 0;
    const timer = setInterval(() => {
      if (res.destroyed || sent > 40) return void clearInterval(timer);
      res.write(chunk);
      sent += 1;
    }, 1);
  });
  remote.routes.set('/slow', () => {
    /* never answers */
  });
  for (let i = 1; i <= 7; i++) {
    remote.routes.set(`/hop${i}`, (_req, res) => {
      res.writeHead(302, { location: i === 7 ? '/users/bob' : `/hop${i + 1}` }).end();
    });
  }
});
afterAll(async () => {
  await vault.close();
  await remote.close();
});

async function testKey() {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    keyId: new URL(`${vault.origin}/users/alice#main-key`),
    privateKey: await crypto.subtle.importKey(
      'pkcs8',
      privateKey.export({ type: 'pkcs8', format: 'der' }),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      true,
      ['sign'],
    ),
  };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('the document loader for lookups on a user’s behalf', () => {
  it('signs its GET as the user (draft-cavage), so an authorized-fetch server answers', async () => {
    const load = await vault.documentLoaderFor('alice');
    const { document } = await load(`${remote.origin}/users/bob`);
    expect(document).toMatchObject({ id: `${remote.origin}/users/bob`, type: 'Person' });
    const get = remote.received.findLast((r) => r.path === '/users/bob')!;
    expect(parseCavage(get.headers.signature as string)?.keyId).toBe(
      `${vault.origin}/users/alice#main-key`,
    );
  });

  it('signs as the instance actor for a user who has no keys (not federated)', async () => {
    const load = await vault.documentLoaderFor('nobody');
    const error = await rejection(load(`${remote.origin}/users/bob`));
    expect(error.message).toContain('401');
    const get = remote.received.findLast((r) => r.path === '/users/bob')!;
    expect(parseCavage(get.headers.signature as string)?.keyId).toBe(
      `${vault.origin}/users/instance.actor#main-key`,
    );
  });

  it('refuses a private address unless VAULT_ALLOW_PRIVATE_ADDRESS is on, sending nothing', async () => {
    const guarded = await startBareFederation({ allowPrivateAddress: false });
    try {
      const load = await guarded.documentLoaderFor('alice');
      const before = remote.received.length;
      for (const url of [
        `${remote.origin}/users/bob`,
        'http://localhost/users/bob',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/users/bob',
        'http://10.0.0.1/users/bob',
      ]) {
        const error = await rejection(load(url));
        expect(error.name, url).toBe('UrlError');
      }
      expect(remote.received.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });

  it('refuses a document over 1 MB, whether its Content-Length says so or not', async () => {
    expect(OUTBOUND_LIMITS.maxBytes).toBe(1024 * 1024);
    const load = await vault.documentLoaderFor('alice');
    for (const path of ['/big', '/big-chunked']) {
      const error = await rejection(load(`${remote.origin}${path}`));
      expect(error.name, path).toBe('FetchError');
      expect(error.message, path).toContain('larger than 1048576 bytes');
    }
  });

  it('gives up on a server that does not answer (10 s by default; 300 ms here)', async () => {
    expect(OUTBOUND_LIMITS.timeoutMs).toBe(10_000);
    const load = createGuardedDocumentLoader({
      key: await testKey(),
      allowPrivateAddress: true,
      userAgent: 'test',
      timeoutMs: 300,
    });
    const started = Date.now();
    const error = await rejection(load(`${remote.origin}/slow`));
    expect(error.name).toBe('FetchError');
    expect(error.message).toContain('Timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('follows up to 5 redirects, each signed and checked again, and refuses more', async () => {
    expect(OUTBOUND_LIMITS.maxRedirects).toBe(5);
    const load = await vault.documentLoaderFor('alice');
    const near = await load(`${remote.origin}/hop3`);
    expect(near.documentUrl).toBe(`${remote.origin}/users/bob`);
    const hops = remote.received.filter((r) => /^\/hop[3-7]$/.test(r.path));
    for (const hop of hops) expect(hop.headers.signature).toBeDefined();

    const error = await rejection(load(`${remote.origin}/hop1`));
    expect(error.message).toContain('More than 5 redirects');
  });

  it('puts every redirect target through the address check before fetching it', async () => {
    const checked: string[] = [];
    const load = createGuardedDocumentLoader({
      key: await testKey(),
      allowPrivateAddress: false,
      userAgent: 'test',
      // The loopback fake stands for a public server; /hop5 stands for a private address.
      checkUrl: async (url) => {
        checked.push(new URL(url).pathname);
        if (url.endsWith('/hop5')) throw new UrlError(`Invalid or private address: ${url}`);
      },
    });
    const before = remote.received.length;
    const error = await rejection(load(`${remote.origin}/hop3`));
    expect(error.name).toBe('UrlError');
    expect(checked).toEqual(['/hop3', '/hop4', '/hop5']);
    expect(remote.received.slice(before).map((r) => r.path)).toEqual(['/hop3', '/hop4']);
  });
});
