import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote, type Json } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * A user who approves followers, followed from a Mastodon-shaped remote (the fake, written
 * without Fedify, verifying every signature): the actor says manuallyApprovesFollowers, a
 * Follow waits as a FOLLOW_REQUEST with nothing sent back, accepting sends the Accept and
 * declining the Reject, each signed by the user and naming the Follow.
 */

let vault: TestServer;
let remote: FakeRemote;
let aliceId: string;
let aliceUserId: number;
const viewer = () => ({ id: aliceUserId, role: 'USER' as const });

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const alice = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    activityPubEnabled: true,
  });
  aliceUserId = alice.id;
  aliceId = `${vault.url}/users/alice`;
  await vault.ctx.users.update(alice.id, { approveFollowers: true });
  remote = await startFakeRemote();
  for (const name of ['asker', 'declined', 'twice']) remote.addAccount(name, { name });
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close()]);
});

const objectIdOf = (activity: Json) => {
  const object = activity.object;
  return typeof object === 'string' ? object : (object as Json).id;
};

const isFollower = (name: string) =>
  vault.ctx.follows.isFollower(aliceUserId, remote.account(name).id);

/** Sends `name`'s Follow of alice and returns it with alice's FOLLOW_REQUEST once stored. */
async function askToFollow(name: string) {
  const activity = remote.activities.follow(name, aliceId);
  expect((await remote.post(name, `${aliceId}/inbox`, activity)).status).toBe(202);
  const until = Date.now() + 10_000;
  for (;;) {
    await vault.ctx.outbox.idle();
    const request = (await vault.ctx.notifications.list(viewer())).find(
      (n) => n.type === 'FOLLOW_REQUEST' && n.senderName === name,
    );
    if (request) return { activity, request };
    if (Date.now() > until) throw new Error(`no FOLLOW_REQUEST from ${name}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** What alice sent `name` about the Follow `followId`. */
const answersTo = (name: string, followId: unknown) =>
  remote.deliveries
    .filter((d) => d.inbox === name && objectIdOf(d.activity) === followId)
    .map((d) => d.activity.type);

describe('a user who approves followers', () => {
  it('is published with manuallyApprovesFollowers: true, and false once the setting is off', async () => {
    const fetchActor = async () => {
      const res = await fetch(aliceId, { headers: { accept: 'application/activity+json' } });
      expect(res.status).toBe(200);
      return (await res.json()) as Json;
    };
    expect((await fetchActor()).manuallyApprovesFollowers).toBe(true);
    await vault.ctx.users.update(aliceUserId, { approveFollowers: false });
    try {
      expect((await fetchActor()).manuallyApprovesFollowers).toBe(false);
    } finally {
      await vault.ctx.users.update(aliceUserId, { approveFollowers: true });
    }
  });

  it('keeps a remote Follow PENDING with no Accept sent, then sends the Accept when alice accepts', async () => {
    const { activity, request } = await askToFollow('asker');
    // Time for an Accept to arrive if one had been sent from the inbox.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(answersTo('asker', activity.id)).toEqual([]);
    expect(await isFollower('asker')).toBe(false);
    expect(await vault.ctx.follows.followers({ id: aliceUserId })).toEqual([]);

    await vault.ctx.notifications.respond(viewer(), request.id, { action: 'ACCEPT' });
    const accept = await remote.waitForDelivery(
      (d) => d.activity.type === 'Accept' && objectIdOf(d.activity) === activity.id,
      10_000,
    );
    expect(accept.inbox).toBe('asker');
    expect(accept.keyOwner).toBe(aliceId);
    expect(accept.activity.actor).toBe(aliceId);
    expect(await isFollower('asker')).toBe(true);
  });

  it('sends a Reject of the Follow when alice declines, and keeps no follow', async () => {
    const { activity, request } = await askToFollow('declined');
    await vault.ctx.notifications.respond(viewer(), request.id, { action: 'DECLINE' });
    const reject = await remote.waitForDelivery(
      (d) => d.activity.type === 'Reject' && objectIdOf(d.activity) === activity.id,
      10_000,
    );
    expect(reject.inbox).toBe('declined');
    expect(reject.keyOwner).toBe(aliceId);
    expect(answersTo('declined', activity.id)).toEqual(['Reject']);
    expect(await isFollower('declined')).toBe(false);
    const follows = await vault.ctx.database.database
      .prepare(
        'SELECT count(*) FROM follows f JOIN actors a ON a.id = f.follower_id WHERE a.uri = ?',
      )
      .pluck()
      .get(remote.account('declined').id);
    expect(follows).toBe(0);
  });

  it('keeps one request, with no Accept, when the same Follow arrives again while it waits', async () => {
    const { activity } = await askToFollow('twice');
    expect((await remote.post('twice', `${aliceId}/inbox`, activity)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 700));
    await vault.ctx.outbox.idle();
    const requests = (await vault.ctx.notifications.list(viewer())).filter(
      (n) => n.type === 'FOLLOW_REQUEST' && n.senderName === 'twice',
    );
    expect(requests).toHaveLength(1);
    expect(answersTo('twice', activity.id)).toEqual([]);
    expect(await isFollower('twice')).toBe(false);
  });
});
