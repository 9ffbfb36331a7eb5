import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followingListSchema } from '../../contract/follows.ts';
import { startHttpsVault, type HttpsVault } from '../helpers/https-vault.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';

/**
 * Two vaults in one test, each a real server on a loopback port behind its own TLS-terminating
 * proxy (https with a self-signed certificate this process trusts), as the README recommends:
 * alice on vault A follows @bob@{vault B} by handle, B accepts, B's followers list shows her,
 * and when she unfollows it no longer does.
 */

function api(site: HttpsVault, path: string, cookie: string, method = 'GET', body?: unknown) {
  return fetch(`${site.origin}/api${path}`, {
    method,
    headers: {
      cookie,
      origin: site.origin,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let a: HttpsVault;
let b: HttpsVault;
let alice: string;
let bob: string;

beforeAll(async () => {
  sharedTestCertificate().trustInThisProcess();
  [a, b] = await Promise.all([startHttpsVault(), startHttpsVault()]);
  alice = await a.addUser('alice');
  bob = await b.addUser('bob');
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const aliceFollowing = async () =>
  followingListSchema.parse(await (await api(a, '/users/following', alice)).json()).remote;
const bobFollowers = async () =>
  ((await (await api(b, '/users/followers', bob)).json()) as { followers: { actorUri?: string }[] })
    .followers;

describe('two vaults', () => {
  it('alice follows @bob on the other vault by handle; his Accept arrives and he lists her', async () => {
    const handle = `@bob@${b.host}`;
    const found = await api(a, '/users/lookup', alice, 'POST', { query: handle });
    expect(found.status).toBe(200);
    const { actor } = (await found.json()) as { actor: { actorUri: string; handle: string } };
    expect(actor).toMatchObject({ actorUri: `${b.origin}/users/bob`, handle });
    const res = await api(a, '/users/remote-follows', alice, 'POST', { actorUri: actor.actorUri });
    expect(res.status).toBe(201);
    const list = await until(aliceFollowing, (l) => l[0]?.state === 'ACCEPTED');
    expect(list).toEqual([
      expect.objectContaining({ actorUri: `${b.origin}/users/bob`, state: 'ACCEPTED' }),
    ]);
    const followers = await until(bobFollowers, (l) => l.length > 0);
    expect(followers).toEqual([
      expect.objectContaining({ kind: 'federated', actorUri: `${a.origin}/users/alice` }),
    ]);
  }, 30_000);

  it('bob’s followers list drops alice when she unfollows', async () => {
    const [item] = await aliceFollowing();
    expect((await api(a, `/users/remote-follows/${item!.actorId}`, alice, 'DELETE')).status).toBe(
      204,
    );
    const followers = await until(bobFollowers, (l) => l.length === 0);
    expect(followers).toEqual([]);
  }, 30_000);
});
