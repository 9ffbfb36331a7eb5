import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followingListSchema } from '../../contract/follows.ts';
import { hashPassword } from '../../src/auth/passwords.ts';
import { startVault, type RunningVault } from '../../src/server.ts';
import { freePort } from '../helpers/process.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';
import { sessionCookieFrom, tempConfig } from '../helpers/vault.ts';

/**
 * Two vaults in one test, each a real server on a loopback port behind its own TLS-terminating
 * proxy (https with a self-signed certificate this process trusts), as the README recommends:
 * alice on vault A follows @bob@{vault B} by handle, B accepts, B's followers list shows her,
 * and when she unfollows it no longer does.
 */

interface Site {
  vault: RunningVault;
  origin: string;
  proxy: https.Server;
  dataDir: string;
}

async function startSite(): Promise<Site> {
  const certificate = sharedTestCertificate();
  const [port, proxyPort] = [await freePort(), await freePort()];
  const origin = `https://127.0.0.1:${proxyPort}`;
  const config = tempConfig({ PORT: String(port), HOST: '127.0.0.1', VAULT_ORIGIN: origin });
  const vault = await startVault(config, { allowPrivateAddress: true });
  const proxy = https.createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  return { vault, origin, proxy, dataDir: config.dataDir };
}

async function closeSite(site: Site | undefined) {
  if (!site) return;
  site.proxy.closeAllConnections();
  await new Promise((resolve) => site.proxy.close(resolve));
  await site.vault.close();
  fs.rmSync(site.dataDir, { recursive: true, force: true });
}

async function addUser(site: Site, username: string) {
  const row = site.vault.ctx.users.insert({
    username,
    fullName: username.replace(/^./, (ch) => ch.toUpperCase()),
    email: `${username}@example.com`,
    role: 'USER',
    passwordHash: await hashPassword(`${username}-password`),
  });
  site.vault.ctx.users.update(row.id, { activityPubEnabled: true });
  const res = await fetch(`${site.origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site.origin },
    body: JSON.stringify({ username, password: `${username}-password` }),
  });
  expect(res.status).toBe(200);
  return sessionCookieFrom(res);
}

function api(site: Site, path: string, cookie: string, method = 'GET', body?: unknown) {
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

let a: Site;
let b: Site;
let alice: string;
let bob: string;

beforeAll(async () => {
  sharedTestCertificate().trustInThisProcess();
  [a, b] = await Promise.all([startSite(), startSite()]);
  alice = await addUser(a, 'alice');
  bob = await addUser(b, 'bob');
}, 60_000);
afterAll(async () => {
  await Promise.all([closeSite(a), closeSite(b)]);
});

const aliceFollowing = async () =>
  followingListSchema.parse(await (await api(a, '/users/following', alice)).json()).remote;
const bobFollowers = async () =>
  ((await (await api(b, '/users/followers', bob)).json()) as { followers: { actorUri?: string }[] })
    .followers;

describe('two vaults', () => {
  it('alice follows @bob on the other vault by handle; his Accept arrives and he lists her', async () => {
    const handle = `@bob@${new URL(b.origin).host}`;
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
