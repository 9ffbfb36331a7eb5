import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followersSource } from '../../federation/follow-collections.ts';
import type { RemoteActorData } from '../../src/actors/repository.ts';
import { createFollowRepository } from '../../src/follows/repository.ts';
import { startFakeRemote, type FakeRemote, type Json } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * The followers and following collections other servers read (paged, totalItems, the
 * followers-synchronisation filter), followers dropped when their inbox is gone for good, and
 * a user who turns federation off: followers kept, nothing delivered.
 */

let vault: TestServer;
let remote: FakeRemote;
let alice: { id: number };
let aliceId: string;

const ACTIVITY_JSON = 'application/activity+json';

function fakeActor(host: string, name: string): RemoteActorData {
  return {
    uri: `https://${host}/users/${name}`,
    inboxUrl: `https://${host}/users/${name}/inbox`,
    sharedInboxUrl: `https://${host}/inbox`,
    handle: `@${name}@${host}`,
    displayName: name,
    summary: '',
    avatarUrl: null,
  };
}

async function getJson(url: string): Promise<Json> {
  const res = await fetch(url, { headers: { accept: ACTIVITY_JSON } });
  expect(res.status, url).toBe(200);
  return (await res.json()) as Json;
}

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  alice = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    activityPubEnabled: true,
  });
  aliceId = `${vault.url}/users/alice`;
  // 51 followers on one server and 2 on another: more than one page.
  for (let i = 0; i < 51; i++) {
    const follow = `https://one.example/follows/${i}`;
    await vault.ctx.remoteFollows.receiveFollow('alice', fakeActor('one.example', `u${i}`), follow);
  }
  for (const name of ['x', 'y']) {
    await vault.ctx.remoteFollows.receiveFollow(
      'alice',
      fakeActor('two.example', name),
      `https://two.example/f/${name}`,
    );
  }
  remote = await startFakeRemote();
  remote.addAccount('loyal');
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close()]);
});

describe('the followers collection', () => {
  it('gives other servers totalItems and an empty first page, not the accounts', async () => {
    const collection = await getJson(`${aliceId}/followers`);
    expect(collection).toMatchObject({ type: 'OrderedCollection', totalItems: 53 });
    expect(collection.orderedItems).toBeUndefined();
    const first = await getJson(collection.first as string);
    expect(first.orderedItems ?? []).toEqual([]);
    expect(first.next).toBeUndefined();
  });

  it('lists a server its own followers with the synchronisation filter, 50 a page', async () => {
    const two = await getJson(`${aliceId}/followers?base-url=https://two.example/`);
    expect((await getJson(two.first as string)).orderedItems).toEqual([
      'https://two.example/users/x',
      'https://two.example/users/y',
    ]);
    const one = await getJson(`${aliceId}/followers?base-url=https://one.example/`);
    const first = await getJson(one.first as string);
    const items = first.orderedItems as string[];
    expect(items).toHaveLength(50);
    expect(items[0]).toBe('https://one.example/users/u0');
    const second = await getJson(first.next as string);
    expect(second.orderedItems).toEqual(['https://one.example/users/u50']);
    expect(second.next).toBeUndefined();
  });

  it('is everything at once, with inboxes and shared inboxes, for Fedify’s fan-out', async () => {
    const source = followersSource(createFollowRepository(vault.ctx.database.database));
    const user = (await vault.ctx.users.findById(alice.id))!;
    const { items } = (await source.page(user, null)) as { items: unknown[] };
    expect(items).toHaveLength(53);
    expect(items[52]).toEqual({
      id: new URL('https://two.example/users/y'),
      inboxId: new URL('https://two.example/users/y/inbox'),
      endpoints: { sharedInbox: new URL('https://two.example/inbox') },
    });
  });

  it('is empty for the instance actor, and the following collection counts accepted follows', async () => {
    for (const name of ['followers', 'following', 'outbox']) {
      expect(await getJson(`${vault.url}/users/instance.actor/${name}`)).toMatchObject({
        type: 'OrderedCollection',
        totalItems: 0,
      });
    }
    const following = await getJson(`${aliceId}/following`);
    expect(following).toMatchObject({ type: 'OrderedCollection', totalItems: 0 });
  });
});

describe('followers whose inbox is gone', () => {
  it('are dropped when a delivery to them fails for good (onDeliveryGone)', async () => {
    const uri = 'https://two.example/users/x';
    expect(await vault.ctx.follows.isFollower(alice.id, uri)).toBe(true);
    expect(
      await vault.ctx.remoteFollows.deliveryGone([uri, 'https://nowhere.example/users/z']),
    ).toBe(1);
    expect(await vault.ctx.follows.isFollower(alice.id, uri)).toBe(false);
    expect(await vault.ctx.remoteFollows.knownActor(uri)).toBeDefined();
  });
});

describe('a user who turns federation off', () => {
  it('keeps the remote followers, and removing one then sends nothing', async () => {
    const follow = remote.activities.follow('loyal', aliceId);
    expect((await remote.post('loyal', `${aliceId}/inbox`, follow)).status).toBe(202);
    await remote.waitForDelivery((d) => d.inbox === 'loyal' && d.activity.type === 'Accept');
    const uri = remote.account('loyal').id;
    await vault.ctx.users.update(alice.id, { activityPubEnabled: false });
    expect(await vault.ctx.follows.isFollower(alice.id, uri)).toBe(true);
    await vault.ctx.users.update(alice.id, { activityPubEnabled: true });
    expect(await vault.ctx.follows.isFollower(alice.id, uri)).toBe(true);
    await vault.ctx.users.update(alice.id, { activityPubEnabled: false });
    const actor = (await vault.ctx.remoteFollows.knownActor(uri))!;
    await vault.ctx.remoteFollows.removeFollower(alice, actor.id);
    await vault.ctx.outbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(remote.deliveries.filter((d) => d.activity.type === 'Reject')).toEqual([]);
  });
});
