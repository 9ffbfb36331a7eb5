import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote, type Json } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * A Mastodon-shaped remote (the fake, written without Fedify) follows a vault user: the vault
 * stores the actor, accepts with an Accept whose object is the Follow, lists the follower, and
 * forgets it on Undo, Delete of the actor, or a Reject sent when the user removes it.
 */

let vault: TestServer;
let remote: FakeRemote;
let aliceId: string;
let aliceUserId: number;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const alice = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    activityPubEnabled: true,
  });
  await vault.createUser({ username: 'bob', password: 'bob-password' });
  aliceUserId = alice.id;
  aliceId = `${vault.url}/users/alice`;
  remote = await startFakeRemote();
  remote.addAccount('locked', { name: 'Locked', manuallyApprovesFollowers: true });
  for (const name of ['mastodonuser', 'second', 'third', 'fourth', 'fifth', 'sixth', 'impostor']) {
    remote.addAccount(name, {
      name: `<b>${name}</b> &amp; co`,
      summary: '<p>Hello <a href="https://example.com">there</a></p><p>Bye<br>now</p>',
    });
  }
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close()]);
});

const objectIdOf = (activity: Json) => {
  const object = activity.object;
  return typeof object === 'string' ? object : (object as Json).id;
};

async function follow(name: string) {
  const activity = remote.activities.follow(name, aliceId);
  expect((await remote.post(name, `${aliceId}/inbox`, activity)).status).toBe(202);
  const accept = await remote.waitForDelivery(
    (d) => d.activity.type === 'Accept' && objectIdOf(d.activity) === activity.id,
    10_000,
  );
  return { activity, accept };
}

const followers = () => vault.ctx.follows.followers({ id: aliceUserId });
const isFollower = (name: string) =>
  vault.ctx.follows.isFollower(aliceUserId, remote.account(name).id);

async function waitFor(check: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('being followed from a Mastodon-shaped server', () => {
  it('accepts a Follow with an Accept signed by alice whose object is the Follow id', async () => {
    const { activity, accept } = await follow('mastodonuser');
    expect(accept.keyOwner).toBe(aliceId);
    expect(accept.activity.actor).toBe(aliceId);
    expect(objectIdOf(accept.activity)).toBe(activity.id);
    expect(await isFollower('mastodonuser')).toBe(true);
    const follower = (await followers()).find((f) => f.uri === remote.account('mastodonuser').id);
    expect(follower).toMatchObject({
      kind: 'remote',
      displayName: 'mastodonuser & co',
      summary: 'Hello there\n\nBye\nnow',
      handle: `@mastodonuser@${new URL(remote.origin).host}`,
    });
  });

  it('gives alice a FOLLOW_INVITE naming the remote actor', async () => {
    const list = await vault.ctx.notifications.list({ id: aliceUserId, role: 'USER' });
    expect(list.some((n) => n.type === 'FOLLOW_INVITE' && n.senderUserId === null)).toBe(true);
  });

  it('changes nothing when the same Follow arrives twice, and accepts it again', async () => {
    const activity = remote.activities.follow('second', aliceId);
    for (let i = 0; i < 2; i++) {
      expect((await remote.post('second', `${vault.url}/inbox`, activity)).status).toBe(202);
    }
    await remote.waitForDelivery(
      (d) => d.activity.type === 'Accept' && objectIdOf(d.activity) === activity.id,
      10_000,
    );
    await waitFor(() => isFollower('second'));
    const uri = remote.account('second').id;
    expect((await followers()).filter((f) => f.uri === uri)).toHaveLength(1);
  });

  it('ignores a Follow of a user without activityPubEnabled', async () => {
    const activity = remote.activities.follow('third', `${vault.url}/users/bob`);
    const res = await remote.post('third', `${vault.url}/inbox`, activity);
    expect(res.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await vault.ctx.remoteFollows.knownActor(remote.account('third').id)).toBeUndefined();
  });

  it('removes the follower on Undo(Follow)', async () => {
    const { activity } = await follow('third');
    await waitFor(() => isFollower('third'));
    const undo = remote.activities.undo('third', activity);
    expect((await remote.post('third', `${aliceId}/inbox`, undo)).status).toBe(202);
    await waitFor(async () => !(await isFollower('third')));
    expect(await isFollower('third')).toBe(false);
  });

  it('stores the new name on Update(Person)', async () => {
    await follow('fourth');
    const before = await vault.ctx.remoteFollows.knownActor(remote.account('fourth').id);
    expect(before?.displayName).toBe('fourth & co');
    remote.account('fourth').profile.name = 'Renamed';
    const update = remote.activities.updatePerson('fourth');
    expect((await remote.post('fourth', `${vault.url}/inbox`, update)).status).toBe(202);
    const uri = remote.account('fourth').id;
    await waitFor(
      async () => (await vault.ctx.remoteFollows.knownActor(uri))?.displayName === 'Renamed',
    );
    expect((await vault.ctx.remoteFollows.knownActor(uri))?.displayName).toBe('Renamed');
  });

  it('fetches the actor again for an Update naming it by id only', async () => {
    const uri = remote.account('fourth').id;
    remote.account('fourth').profile.name = 'Fetched again';
    const update = { ...remote.activities.updatePerson('fourth'), object: uri };
    expect((await remote.post('fourth', `${vault.url}/inbox`, update)).status).toBe(202);
    await waitFor(
      async () => (await vault.ctx.remoteFollows.knownActor(uri))?.displayName === 'Fetched again',
    );
    expect((await vault.ctx.remoteFollows.knownActor(uri))?.displayName).toBe('Fetched again');
  });

  it('forgets an actor that deletes itself, everywhere', async () => {
    await follow('fifth');
    const uri = remote.account('fifth').id;
    const deletion = remote.activities.deleteActor('fifth');
    expect((await remote.post('fifth', `${vault.url}/inbox`, deletion)).status).toBe(202);
    await waitFor(async () => (await vault.ctx.remoteFollows.knownActor(uri)) === undefined);
    expect(await isFollower('fifth')).toBe(false);
  });

  it('sends a Reject of the Follow when alice removes a remote follower', async () => {
    const { activity } = await follow('second');
    const actor = (await vault.ctx.remoteFollows.knownActor(remote.account('second').id))!;
    await vault.ctx.remoteFollows.removeFollower({ id: aliceUserId }, actor.id);
    expect(await isFollower('second')).toBe(false);
    const reject = await remote.waitForDelivery(
      (d) => d.activity.type === 'Reject' && d.keyOwner === aliceId,
      10_000,
    );
    expect(objectIdOf(reject.activity)).toBe(activity.id);
  });

  it('forgets an actor whose Delete arrives after it is gone (its key answers 410)', async () => {
    await follow('sixth');
    const uri = remote.account('sixth').id;
    remote.removeAccount('sixth');
    const deletion = remote.activities.deleteActor('sixth');
    expect((await remote.post('sixth', `${vault.url}/inbox`, deletion)).status).toBe(202);
    await waitFor(async () => (await vault.ctx.remoteFollows.knownActor(uri)) === undefined);
    expect(await vault.ctx.remoteFollows.knownActor(uri)).toBeUndefined();
  });

  it('ignores a Follow of the instance actor and an Undo of somebody else’s Follow', async () => {
    const toInstance = remote.activities.follow('impostor', `${vault.url}/users/instance.actor`);
    expect((await remote.post('impostor', `${vault.url}/inbox`, toInstance)).status).toBe(202);
    const { activity } = await follow('mastodonuser');
    // The impostor signs an Undo embedding mastodonuser's Follow: not its own, ignored.
    const undo = { ...remote.activities.undo('impostor', activity), object: activity };
    expect((await remote.post('impostor', `${aliceId}/inbox`, undo)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await isFollower('mastodonuser')).toBe(true);
    expect(await isFollower('impostor')).toBe(false);
  });
});

describe('alice following a remote account', () => {
  const lockedData = () => {
    const account = remote.account('locked');
    return {
      uri: account.id,
      inboxUrl: account.inbox,
      sharedInboxUrl: `${remote.origin}/inbox`,
      handle: `@locked@${remote.host}`,
      displayName: 'Locked',
      summary: '',
      avatarUrl: null,
    };
  };
  const stateOf = async () =>
    (await vault.ctx.remoteFollows.following({ id: aliceUserId })).find(
      (f) => f.uri === remote.account('locked').id,
    )?.state;

  it('stays pending on an Accept from another actor, and is accepted by the followed one (object by id)', async () => {
    await vault.ctx.remoteFollows.follow({ id: aliceUserId }, lockedData());
    const sent = await remote.waitForDelivery(
      (d) => d.inbox === 'locked' && d.activity.type === 'Follow',
      10_000,
    );
    expect(sent.keyOwner).toBe(aliceId);
    const followId = sent.activity.id as string;
    const forged = remote.activities.accept('impostor', sent.activity);
    expect((await remote.post('impostor', `${aliceId}/inbox`, forged)).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await stateOf()).toBe('PENDING');
    const byId = {
      '@context': 'https://www.w3.org/ns/activitystreams',
      id: `${remote.account('locked').id}#accepts/1`,
      type: 'Accept',
      actor: remote.account('locked').id,
      object: followId,
    };
    for (let i = 0; i < 2; i++) {
      expect((await remote.post('locked', `${aliceId}/inbox`, byId)).status).toBe(202);
    }
    await waitFor(async () => (await stateOf()) === 'ACCEPTED');
    expect(await stateOf()).toBe('ACCEPTED');
  });

  it('is removed by the followed actor’s Reject', async () => {
    const sent = remote.deliveries.find(
      (d) => d.inbox === 'locked' && d.activity.type === 'Follow',
    )!;
    const reject = remote.activities.reject('locked', sent.activity);
    expect((await remote.post('locked', `${aliceId}/inbox`, reject)).status).toBe(202);
    await waitFor(async () => (await stateOf()) === undefined);
    expect(await stateOf()).toBeUndefined();
  });

  it('follows back a remote follower from its FOLLOW_INVITE', async () => {
    const viewer = { id: aliceUserId, role: 'USER' as const };
    const invite = (await vault.ctx.notifications.list(viewer)).find(
      (n) =>
        n.type === 'FOLLOW_INVITE' &&
        n.status === 'PENDING' &&
        n.senderName === 'mastodonuser & co',
    );
    expect(invite).toBeDefined();
    await vault.ctx.notifications.respond(viewer, invite!.id, { action: 'ACCEPT' });
    const uri = remote.account('mastodonuser').id;
    const sent = await remote.waitForDelivery(
      (d) =>
        d.inbox === 'mastodonuser' && d.activity.type === 'Follow' && d.activity.object === uri,
      10_000,
    );
    expect(sent.keyOwner).toBe(aliceId);
    await waitFor(
      async () =>
        (await vault.ctx.remoteFollows.following({ id: aliceUserId })).find((f) => f.uri === uri)
          ?.state === 'ACCEPTED',
    );
    expect(remote.followers('mastodonuser')).toContain(aliceId);
  });
});
