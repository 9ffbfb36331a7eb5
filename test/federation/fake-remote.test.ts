import { execFile } from 'node:child_process';
import { Follow, Person } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_JSON, startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { sha256Digest } from '../helpers/http-signatures.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';

let vault: TestServer;
let remote: FakeRemote;
let sender: FakeRemote;
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
  sender = await startFakeRemote();
  sender.addAccount('peer');
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close(), sender?.close()]);
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

describe('the fake remote’s own verification of inbox POSTs', () => {
  const inbox = () => remote.account('mastodonuser').inbox;
  const activity = () => sender.activities.follow('peer', remote.account('mastodonuser').id);
  const signedParts = (body: string, signedHeaders?: string[], date?: Date) => {
    const request = {
      method: 'POST',
      url: inbox(),
      headers: { 'content-type': ACTIVITY_JSON },
      body,
    };
    return { ...request, headers: sender.sign('peer', request, { signedHeaders, date }) };
  };

  async function expectRefused(send: Promise<{ status: number }>, reason: RegExp) {
    const before = remote.refused.length;
    expect((await send).status).toBe(401);
    expect(remote.refused.slice(before).map((r) => r.reason)).toEqual([
      expect.stringMatching(reason),
    ]);
  }

  it('accepts a correctly signed POST (202) and records it with the verified key', async () => {
    const follow = activity();
    expect((await sender.post('peer', inbox(), follow)).status).toBe(202);
    const delivery = await remote.waitForDelivery((d) => d.activity.id === follow.id, 1000);
    expect(delivery).toMatchObject({
      inbox: 'mastodonuser',
      keyId: sender.account('peer').keyId,
      keyOwner: sender.account('peer').id,
      activity: follow,
    });
  });

  it('refuses an unsigned POST with 401', async () => {
    const body = JSON.stringify(activity());
    const unsigned = remote.send({
      method: 'POST',
      url: inbox(),
      body,
      headers: { 'content-type': ACTIVITY_JSON },
    });
    await expectRefused(unsigned, /no Signature header/);
  });

  it('refuses a POST whose Digest does not match its body', async () => {
    const parts = signedParts(JSON.stringify(activity()));
    const changed = JSON.stringify({ ...activity(), object: 'http://elsewhere.example/x' });
    await expectRefused(remote.send({ ...parts, body: changed }), /Digest that does not match/);
  });

  it('refuses a POST whose Digest was recomputed for a changed body (the signature breaks)', async () => {
    const parts = signedParts(JSON.stringify(activity()));
    const changed = JSON.stringify({ ...activity(), object: 'http://elsewhere.example/x' });
    const headers = { ...parts.headers, digest: sha256Digest(changed) };
    await expectRefused(remote.send({ ...parts, headers, body: changed }), /key does not verify/);
  });

  it('refuses a POST signed with another key than the key id names', async () => {
    const forged = remote.post('impostor', inbox(), activity(), {
      keyId: sender.account('peer').keyId,
    });
    await expectRefused(forged, /key does not verify/);
  });

  it('refuses a signature that does not cover the digest', async () => {
    const parts = signedParts(JSON.stringify(activity()), ['(request-target)', 'host', 'date']);
    await expectRefused(remote.send(parts), /does not cover digest/);
  });

  it('refuses a Date more than 12 hours off', async () => {
    const parts = signedParts(
      JSON.stringify(activity()),
      undefined,
      new Date(Date.now() - 13 * 3600_000),
    );
    await expectRefused(remote.send(parts), /Date too far/);
  });

  it('refuses an activity whose actor does not own the signing key', async () => {
    const follow = { ...activity(), actor: remote.account('impostor').id };
    await expectRefused(sender.post('peer', inbox(), follow), /does not own the key/);
  });

  it('refuses an RFC 9421 signature (401), so a double-knocking sender retries with draft-cavage', async () => {
    const parts = signedParts(JSON.stringify(activity()));
    const headers = {
      ...parts.headers,
      'signature-input': 'sig1=("@method" "@target-uri");keyid="x"',
    };
    await expectRefused(remote.send({ ...parts, headers }), /RFC 9421/);
  });

  it('refuses a body over 1 MB with 413 without verifying it', async () => {
    const before = remote.refused.length;
    const big = remote.send({ ...signedParts('x'.repeat(1024 * 1024 + 1)) });
    expect((await big).status).toBe(413);
    expect(remote.refused.slice(before).map((r) => r.reason)).toEqual(['a body over 1 MB']);
  });

  it('answers what an inbox is told to (410, then hanging), recording the delivery', async () => {
    remote.answerInbox('mastodonuser', { status: 410 });
    const gone = activity();
    expect((await sender.post('peer', inbox(), gone)).status).toBe(410);
    remote.answerInbox('mastodonuser', 'hang');
    const hanging = activity();
    await expect(
      sender.send({ ...signedParts(JSON.stringify(hanging)), timeoutMs: 300 }),
    ).rejects.toThrow(/timed out/);
    remote.answerInbox('mastodonuser', null);
    expect((await sender.post('peer', inbox(), activity())).status).toBe(202);
    const statuses = remote.deliveries
      .filter((d) => d.activity.id === gone.id || d.activity.id === hanging.id)
      .map((d) => d.status);
    expect(statuses).toEqual([410, 'hang']);
  });

  it('rejects a wait for a delivery that never comes, saying what it waited for', async () => {
    await expect(remote.waitForDelivery((d) => d.activity.type === 'Nothing', 50)).rejects.toThrow(
      /no delivery matched within 50 ms/,
    );
  });
});

describe('the fake remote’s followers', () => {
  it('accepts a Follow of an unlocked account at once and forgets the follower on Undo', async () => {
    const target = remote.addAccount('unlocked');
    const follow = sender.activities.follow('peer', target.id);
    expect((await sender.post('peer', target.inbox, follow)).status).toBe(202);
    const accept = await sender.waitForDelivery(
      (d) => d.activity.type === 'Accept' && d.activity.actor === target.id,
    );
    expect(accept).toMatchObject({ inbox: 'shared', keyId: target.keyId });
    expect(accept.activity.object).toMatchObject({ id: follow.id, type: 'Follow' });
    const collection = await sender.signedGet('peer', target.followers);
    expect(collection.json()).toMatchObject({
      totalItems: 1,
      orderedItems: [sender.account('peer').id],
    });

    const undo = sender.activities.undo('peer', follow);
    expect((await sender.post('peer', `${remote.origin}/inbox`, undo)).status).toBe(202);
    expect(remote.followers('unlocked')).toEqual([]);
  });

  it('lets a locked account’s Follow wait for acceptFollow or rejectFollow', async () => {
    const target = remote.addAccount('locked', { manuallyApprovesFollowers: true });
    const follow = sender.activities.follow('peer', target.id);
    expect((await sender.post('peer', target.inbox, follow)).status).toBe(202);
    expect(remote.followers('locked')).toEqual([]);
    const rejected = await remote.rejectFollow('locked', follow);
    expect(rejected.status).toBe(202);
    const reject = await sender.waitForDelivery(
      (d) => d.activity.type === 'Reject' && d.activity.actor === target.id,
    );
    expect(reject.activity).toMatchObject({ actor: target.id, object: { id: follow.id } });
    expect(remote.sent.filter((s) => s.from === 'locked').map((s) => s.activity.type)).toEqual([
      'Reject',
    ]);
  });
});

describe('the fake remote’s documents and activities', () => {
  it('builds a Create(Note) with ids on its origin and an extension, and serves the note', async () => {
    const author = remote.account('mastodonuser');
    const extension = {
      context: { vault: 'https://vault.example/ns#' },
      properties: { rating: 4 },
    };
    const { note, activity } = remote.activities.createNote('mastodonuser', {
      content: '<p>A dram</p>',
      extension,
    });
    expect(activity).toMatchObject({
      id: `${note.id as string}/activity`,
      type: 'Create',
      actor: author.id,
      to: [author.followers],
      cc: [],
      object: { type: 'Note', attributedTo: author.id, content: '<p>A dram</p>', rating: 4 },
    });
    expect(String(note.id).startsWith(`${remote.origin}/users/mastodonuser/statuses/`)).toBe(true);
    expect(activity['@context']).toContainEqual(extension.context);
    const served = await sender.signedGet('peer', String(note.id));
    expect(served.json()).toEqual(note);
    const plain = remote.activities.createNote('mastodonuser', { content: '<p>Plain</p>' });
    expect(plain.note).not.toHaveProperty('rating');
    expect(plain.activity['@context']).not.toContainEqual(extension.context);
  });

  it('answers 410 for the actor of a removed account and 404 to WebFinger', async () => {
    const gone = remote.addAccount('gone');
    remote.removeAccount('gone');
    expect((await sender.signedGet('peer', gone.id)).status).toBe(410);
    const finger = `${remote.origin}/.well-known/webfinger?resource=acct:${remote.handle('gone')}`;
    expect((await sender.send({ url: finger })).status).toBe(404);
    expect(remote.activities.deleteActor('gone')).toMatchObject({
      type: 'Delete',
      actor: gone.id,
      object: gone.id,
    });
  });
});

describe('the fake remote in authorized-fetch mode', () => {
  it('refuses unsigned GETs of an actor (401), serves signed ones, keeps WebFinger public', async () => {
    const secure = await startFakeRemote({ authorizedFetch: true });
    try {
      const actor = secure.addAccount('locked').id;
      expect((await sender.send({ url: actor })).status).toBe(401);
      const signed = await sender.signedGet('peer', actor);
      expect(signed.status).toBe(200);
      expect(signed.json()).toMatchObject({
        id: actor,
        type: 'Person',
        preferredUsername: 'locked',
      });
      expect(secure.gets.map((g) => [g.verified, g.status, g.keyId])).toEqual([
        [false, 401, null],
        [true, 200, sender.account('peer').keyId],
      ]);
      const finger = await sender.send({
        url: `${secure.origin}/.well-known/webfinger?resource=acct:${secure.handle('locked')}`,
      });
      expect(finger.json()).toMatchObject({
        subject: `acct:${secure.handle('locked')}`,
        links: expect.arrayContaining([{ rel: 'self', type: ACTIVITY_JSON, href: actor }]),
      });
    } finally {
      await secure.close();
    }
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
