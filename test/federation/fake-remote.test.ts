import { execFile } from 'node:child_process';
import { Follow, Person } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_JSON, startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { sha256Digest } from '../helpers/http-signatures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';

/**
 * The fake remote against the real vault on a loopback port: what it signs the vault accepts,
 * what it tampers with the vault refuses, and what the vault signs (deliveries, key fetches,
 * lookups) it verifies. Its own checks are in fake-remote-verification.test.ts.
 */

let vault: TestServer;
let remote: FakeRemote;
let aliceId: string;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    activityPubEnabled: true,
  });
  aliceId = `${vault.url}/users/alice`;
  remote = await startFakeRemote();
  remote.addAccount('mastodonuser', { name: 'Mastodon User', summary: '<p>Hi</p>' });
  remote.addAccount('impostor');
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close()]);
});

describe('the fake remote against the vault', () => {
  it('has a Follow it signs accepted (202) by the vault’s personal and shared inboxes', async () => {
    for (const inbox of [`${aliceId}/inbox`, `${vault.url}/inbox`]) {
      const follow = remote.activities.follow('mastodonuser', aliceId);
      const res = await remote.post('mastodonuser', inbox, follow);
      expect(res.status, inbox).toBe(202);
    }
    // The vault fetched the signer's key from the fake to verify the signature.
    const keyFetch = await remote.waitForGet((get) => get.path === '/users/mastodonuser');
    expect(keyFetch.status).toBe(200);
  });

  it('verifies the GET the vault signs (as the recipient) to fetch a key from an authorized-fetch server', async () => {
    const secure = await startFakeRemote({ authorizedFetch: true });
    try {
      secure.addAccount('secure');
      const follow = secure.activities.follow('secure', aliceId);
      expect((await secure.post('secure', `${aliceId}/inbox`, follow)).status).toBe(202);
      expect(secure.gets).toEqual([
        expect.objectContaining({
          path: '/users/secure',
          verified: true,
          keyId: `${aliceId}#main-key`,
          keyOwner: aliceId,
          status: 200,
        }),
      ]);
    } finally {
      await secure.close();
    }
  });

  it('sees the vault refuse (401) a delivery whose body was changed after signing', async () => {
    const follow = remote.activities.follow('mastodonuser', aliceId);
    const request = { method: 'POST', url: `${aliceId}/inbox`, body: JSON.stringify(follow) };
    const headers = remote.sign('mastodonuser', {
      ...request,
      headers: { 'content-type': ACTIVITY_JSON },
    });
    const tampered = JSON.stringify({ ...follow, object: `${vault.url}/users/admin` });
    expect((await remote.send({ ...request, headers, body: tampered })).status).toBe(401);
  });

  it('sees the vault refuse (401) a delivery signed with another key than the key id names', async () => {
    const follow = remote.activities.follow('mastodonuser', aliceId);
    const forged = await remote.post('impostor', `${aliceId}/inbox`, follow, {
      keyId: remote.account('mastodonuser').keyId,
    });
    expect(forged.status).toBe(401);
  });

  it('verifies a delivery the vault’s Fedify signs, fetching the vault user’s key', async () => {
    const federation = (await vault.ctx.federation.load()).federation;
    const context = federation.createContext(new URL(vault.url), undefined);
    const target = remote.account('mastodonuser');
    const follow = new Follow({
      id: new URL(`${aliceId}#follows/1`),
      actor: context.getActorUri('alice'),
      object: new URL(target.id),
    });
    const recipient = { id: new URL(target.id), inboxId: new URL(target.inbox) };
    await context.sendActivity({ identifier: 'alice' }, recipient, follow, { immediate: true });
    const delivery = await remote.waitForDelivery((d) => d.activity.id === `${aliceId}#follows/1`);
    expect(delivery).toMatchObject({
      inbox: 'mastodonuser',
      keyId: `${aliceId}#main-key`,
      keyOwner: aliceId,
      status: 202,
    });
    expect(delivery.headers.digest).toBe(sha256Digest(delivery.body));
    // As Mastodon, the fake accepts at once, through the vault's shared inbox.
    const accepted = await remote.waitForSent((sent) => sent.activity.type === 'Accept');
    expect(accepted).toMatchObject({ url: `${vault.url}/inbox`, status: 202 });
    expect((accepted.activity.object as { id: string }).id).toBe(`${aliceId}#follows/1`);
    expect(remote.followers('mastodonuser')).toContain(aliceId);
  });
});

describe('an https fake remote', () => {
  it('serves WebFinger to a child process started with the certificate’s env, not to one without', async () => {
    const secure = await startFakeRemote({ https: true });
    try {
      secure.addAccount('tls');
      const url = `${secure.origin}/.well-known/webfinger?resource=acct:${secure.handle('tls')}`;
      const script = `fetch(${JSON.stringify(url)}).then((r) => r.json()).then((j) => console.log(j.subject), (e) => console.log(e.cause?.code))`;
      const run = (env: NodeJS.ProcessEnv) =>
        new Promise<string>((resolve, reject) =>
          execFile(process.execPath, ['-e', script], { env }, (error, out) =>
            error ? reject(error) : resolve(out.trim()),
          ),
        );
      const { NODE_EXTRA_CA_CERTS: _unset, ...withoutCa } = process.env;
      expect(await run({ ...withoutCa, ...sharedTestCertificate().env })).toBe(
        `acct:${secure.handle('tls')}`,
      );
      expect(await run(withoutCa)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      await secure.close();
    }
  });

  it('has its Follow accepted by the vault once this process trusts the certificate', async () => {
    const secure = await startFakeRemote({ https: true });
    try {
      secure.addAccount('tls');
      sharedTestCertificate().trustInThisProcess();
      const res = await secure.post(
        'tls',
        `${aliceId}/inbox`,
        secure.activities.follow('tls', aliceId),
      );
      expect(res.status).toBe(202);
      expect(secure.gets).toEqual([expect.objectContaining({ path: '/users/tls', status: 200 })]);
    } finally {
      await secure.close();
    }
  });

  it('is found by handle through Fedify’s lookup over https, the actor GET signed as the user', async () => {
    const secure = await startFakeRemote({ https: true, authorizedFetch: true });
    try {
      secure.addAccount('tls', { name: 'TLS User' });
      sharedTestCertificate().trustInThisProcess();
      const federation = (await vault.ctx.federation.load()).federation;
      const context = federation.createContext(new URL(vault.url), undefined);
      const documentLoader = await context.getDocumentLoader({ identifier: 'alice' });
      const found = await context.lookupObject(`@${secure.handle('tls')}`, { documentLoader });
      expect(found).toBeInstanceOf(Person);
      expect(found?.id?.href).toBe(secure.account('tls').id);
      expect(secure.gets).toEqual([
        expect.objectContaining({ path: '/users/tls', verified: true, keyOwner: aliceId }),
      ]);
    } finally {
      await secure.close();
    }
  });
});
