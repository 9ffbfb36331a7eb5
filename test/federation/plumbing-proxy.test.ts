import fs from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.ts';
import { startVault, type RunningVault } from '../../src/server.ts';
import { testDatabase } from '../helpers/postgres.ts';
import { freePort } from '../helpers/process.ts';
import { tempConfig } from '../helpers/vault.ts';
import { startFakeRemote, type FakeRemote } from './plumbing-remote.ts';

/**
 * The README's recommended setup: a TLS-terminating reverse proxy in front of the vault. The
 * vault is served on a loopback http port with VAULT_ORIGIN https://vault.example; the test
 * plays the proxy, passing requests on with the public Host.
 */
const ORIGIN = 'https://vault.example';
let vault: RunningVault;
let dataDir: string;
let remote: FakeRemote;
let port: number;
/** On PostgreSQL, the vault's own database. */
const postgres = testDatabase();

beforeAll(async () => {
  port = await freePort();
  const config = tempConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    VAULT_ORIGIN: ORIGIN,
    ...(postgres ? { VAULT_DATABASE_URL: postgres.url } : {}),
  });
  dataDir = config.dataDir;
  vault = await startVault(config, {
    allowPrivateAddress: true,
    ...(postgres ? { beforeMigrating: postgres.create } : {}),
  });
  const alice = await vault.ctx.users.insert({
    username: 'alice',
    fullName: 'Alice',
    email: 'alice@example.com',
    role: 'USER',
    passwordHash: await hashPassword('alice-password-1'),
  });
  await vault.ctx.users.update(alice.id, { activityPubEnabled: true });
  remote = await startFakeRemote();
  remote.serveActor('/actor');
});
afterAll(async () => {
  await vault.close();
  await remote.close();
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let sequence = 0;
function follow(): string {
  sequence += 1;
  return JSON.stringify({
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${remote.origin}/follows/${sequence}`,
    type: 'Follow',
    actor: `${remote.origin}/actor`,
    object: `${ORIGIN}/users/alice`,
  });
}

/** POSTs to the vault's loopback port as the proxy would pass the request on. */
function post(path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('behind a TLS-terminating reverse proxy', () => {
  it('accepts a delivery signed (RFC 9421) for https://vault.example/inbox, passed on with Host vault.example', async () => {
    const body = follow();
    const headers = remote.rfc9421Headers(`${ORIGIN}/inbox`, body);
    expect(headers.host).toBe('vault.example');
    expect(await post('/inbox', headers, body)).toBe(202);
  });

  it('accepts a draft-cavage delivery to a user inbox even when the proxy passes on its own Host', async () => {
    const body = follow();
    const headers = remote.cavageHeaders(`${ORIGIN}/users/alice/inbox`, body);
    expect(await post('/users/alice/inbox', { ...headers, host: `127.0.0.1:${port}` }, body)).toBe(
      202,
    );
  });

  it('refuses a delivery signed for the loopback address the server listens on (401)', async () => {
    const body = follow();
    const headers = remote.rfc9421Headers(`http://127.0.0.1:${port}/inbox`, body);
    expect(await post('/inbox', headers, body)).toBe(401);
  });
});
