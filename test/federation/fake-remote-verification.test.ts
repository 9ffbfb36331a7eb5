import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_JSON, startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { sha256Digest } from '../helpers/http-signatures.ts';

/**
 * The fake remote checked on its own (two fakes talking to each other), so that federation
 * tests built on it cannot pass vacuously: what it must refuse, it refuses.
 */

let remote: FakeRemote;
let sender: FakeRemote;

beforeAll(async () => {
  remote = await startFakeRemote();
  remote.addAccount('mastodonuser', { name: 'Mastodon User', summary: '<p>Hi</p>' });
  remote.addAccount('impostor');
  sender = await startFakeRemote();
  sender.addAccount('peer');
});
afterAll(async () => {
  await Promise.all([remote?.close(), sender?.close()]);
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

  it('serves an edited note after updateNote and none after deleteNote', async () => {
    const { note } = remote.activities.createNote('mastodonuser', { content: '<p>First</p>' });
    const update = remote.activities.updateNote('mastodonuser', {
      ...note,
      content: '<p>Edited</p>',
    });
    expect(update).toMatchObject({
      type: 'Update',
      object: { id: note.id, content: '<p>Edited</p>' },
    });
    const edited = (await sender.signedGet('peer', String(note.id))).json();
    expect(edited).toMatchObject({ content: '<p>Edited</p>', updated: expect.any(String) });
    const deletion = remote.activities.deleteNote('mastodonuser', note);
    expect(deletion).toMatchObject({ type: 'Delete', object: { id: note.id, type: 'Tombstone' } });
    expect((await sender.signedGet('peer', String(note.id))).status).toBe(404);
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
