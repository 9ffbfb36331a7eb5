import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote, type Json } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';
import { login } from './inbox-entries-world.ts';

/**
 * A Block from a Mastodon-shaped server (the fake), in the shape Mastodon sends it (id
 * `{actor}#blocks/{n}`, its Undo `…/undo` with the Block embedded), signed by the fake's real
 * keys and posted to the real personal and shared inboxes: it is kept once, the follows between
 * the blocker and the user end both ways, the blocker's cheers and comments leave her entries;
 * while it stands she cannot follow him, his Follow, replies and Likes are ignored, and nothing
 * signed by her reaches him, not even a delivery queued before the block; its Undo lifts it,
 * restoring nothing but letting follows and replies work again.
 */

const AS = 'https://www.w3.org/ns/activitystreams';
let vault: TestServer;
let masto: FakeRemote;
let other: FakeRemote;
let alice: { id: number; role: 'USER'; cookie: string };
let dave: { id: number; role: 'USER' };
let aliceUri: string;
let bob: string;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const row = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    activityPubEnabled: true,
  });
  alice = { id: row.id, role: 'USER', cookie: await login(vault, 'alice', 'alice-password') };
  const daveRow = await vault.createUser({
    username: 'dave',
    password: 'dave-password',
    activityPubEnabled: true,
  });
  dave = { id: daveRow.id, role: 'USER' };
  aliceUri = `${vault.url}/users/alice`;
  masto = await startFakeRemote();
  other = await startFakeRemote();
  bob = masto.addAccount('bob').id;
  other.addAccount('carol');
  const db = vault.ctx.database.database;
  const aliceActor = await vault.ctx.actors.localActorId(alice.id);
  const bobActor = await insertRemoteFollower(db, aliceActor, masto, 'bob');
  await insertRemoteFollower(db, aliceActor, other, 'carol');
  await insertRemoteFollower(db, await vault.ctx.actors.localActorId(dave.id), masto, 'bob');
  // Alice follows bob too.
  await db
    .prepare(
      `INSERT INTO follows (follower_id, followed_id, state, activity_uri, created_at)
       VALUES (?, ?, 'ACCEPTED', ?, ?)`,
    )
    .run(aliceActor, bobActor, `${aliceUri}#follows/bob`, Date.now());
  await vault.ctx.federation.load();
});
afterAll(async () => {
  await Promise.all([vault?.close(), masto?.close(), other?.close()]);
});

/** Waits until the federation queue and the outbox have handled everything. */
async function settled() {
  await expect
    .poll(
      async () => {
        const federation = vault.ctx.federation.current()!;
        const depth = await federation.queue.getDepth();
        return depth.queued === 0 && federation.queue.inFlight === 0;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  await vault.ctx.outbox.idle();
}

/** Posts as bob to an inbox (alice's by default) and waits until it is handled. */
async function deliver(activity: Json, inbox = `${aliceUri}/inbox`) {
  const res = await masto.post('bob', inbox, activity);
  expect(res.status, res.body).toBe(202);
  await settled();
}

const db = () => vault.ctx.database.database;
const bobActorId = async () => (await vault.ctx.actors.findRemoteByUri(bob))!.id;
const actorOf = (user: { id: number }) => vault.ctx.actors.localActorId(user.id);
/** Follows from one actor to another, given the promises of their ids. */
const follow = async (from: Promise<number>, to: Promise<number>) =>
  db()
    .prepare('SELECT count(*) FROM follows WHERE follower_id = ? AND followed_id = ?')
    .pluck()
    .get(await from, await to);
const bobsOn = async (table: 'cheers' | 'comments', entryId: number) =>
  db()
    .prepare(`SELECT count(*) FROM ${table} WHERE actor_id = ? AND beverage_id = ?`)
    .pluck()
    .get(await bobActorId(), entryId);
const receivedBlocks = () =>
  db()
    .prepare<{ id: number; blocker: string; blocked: string; activityUri: string }>(
      `SELECT rb.id, a.uri AS blocker, u.username AS blocked, rb.activity_uri AS activityUri
       FROM received_blocks rb JOIN actors a ON a.id = rb.blocker_actor_id
       JOIN users u ON u.id = rb.blocked_user_id ORDER BY rb.id`,
    )
    .all();
const sentTo = (remote: FakeRemote, type: string, objectId: string) =>
  remote.deliveries.filter((d) => {
    const object = d.activity.object;
    const id = typeof object === 'string' ? object : (object as Json | undefined)?.id;
    return d.activity.type === type && id === objectId;
  });

const block = (object: string, n: number) => ({
  '@context': AS,
  id: `${bob}#blocks/${n}`,
  type: 'Block',
  actor: bob,
  object,
});
const undo = (object: Json | string, n: number) => ({
  '@context': AS,
  id: `${bob}#blocks/${n}/undo`,
  type: 'Undo',
  actor: bob,
  object,
});

async function entry(owner: { id: number; role: 'USER' } = alice) {
  const created = await vault.ctx.beverages.create(owner, {
    type: 'BEER',
    name: 'Saison',
    visibility: 'FOLLOWERS',
  });
  const username = owner === alice ? 'alice' : 'dave';
  return { id: created.id, note: `${vault.url}/users/${username}/entries/${created.id}` };
}

function reply(note: string, n: number) {
  const id = `${bob}/statuses/${n}`;
  return {
    '@context': AS,
    id: `${id}/activity`,
    type: 'Create',
    actor: bob,
    to: [aliceUri],
    object: {
      id,
      type: 'Note',
      inReplyTo: note,
      published: '2026-11-20T10:00:00Z',
      attributedTo: bob,
      to: [aliceUri],
      content: '<p>Lovely</p>',
    },
  };
}
const like = (note: string, n: number) => ({
  '@context': AS,
  id: `${bob}#likes/${n}`,
  type: 'Like',
  actor: bob,
  object: note,
});

/** Alice asks to follow bob through the API. */
const followBob = () =>
  fetch(`${vault.url}/api/users/remote-follows`, {
    method: 'POST',
    headers: { cookie: alice.cookie, origin: vault.url, 'content-type': 'application/json' },
    body: JSON.stringify({ actorUri: bob }),
  });

describe('a Block received from a remote account', () => {
  let first: { id: number; note: string };

  it('names someone else or an unknown user: nothing changes', async () => {
    first = await entry();
    await deliver(like(first.note, 1));
    await deliver(reply(first.note, 1));
    expect(await bobsOn('cheers', first.id)).toBe(1);
    expect(await bobsOn('comments', first.id)).toBe(1);
    await deliver(block(other.account('carol').id, 1));
    await deliver(block(`${vault.url}/users/nobody`, 2));
    expect(await receivedBlocks()).toEqual([]);
    expect(await follow(bobActorId(), actorOf(alice))).toBe(1);
    expect(await follow(actorOf(alice), bobActorId())).toBe(1);
    expect(await bobsOn('cheers', first.id)).toBe(1);
    expect(await bobsOn('comments', first.id)).toBe(1);
  });

  it('naming alice is kept once, ends both follows and removes his cheers and comments', async () => {
    await deliver(block(aliceUri, 3));
    await deliver(block(aliceUri, 3)); // the same Block again changes nothing
    expect(await receivedBlocks()).toEqual([
      { id: expect.any(Number), blocker: bob, blocked: 'alice', activityUri: `${bob}#blocks/3` },
    ]);
    expect(await follow(bobActorId(), actorOf(alice))).toBe(0);
    expect(await follow(actorOf(alice), bobActorId())).toBe(0);
    expect(await bobsOn('cheers', first.id)).toBe(0);
    expect(await bobsOn('comments', first.id)).toBe(0);
  });

  it('while it stands, alice is told that the account cannot be followed, and nothing is sent', async () => {
    const res = await followBob();
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'You cannot follow this user.' });
    expect(await follow(actorOf(alice), bobActorId())).toBe(0);
    await settled();
    expect(masto.deliveries.filter((d) => d.activity.type === 'Follow')).toEqual([]);
  });

  it('while it stands, his Follow is ignored: no follow, no Accept, no Reject', async () => {
    const again = masto.activities.follow('bob', aliceUri);
    await deliver(again);
    expect(await follow(bobActorId(), actorOf(alice))).toBe(0);
    expect(sentTo(masto, 'Accept', String(again.id))).toEqual([]);
    expect(sentTo(masto, 'Reject', String(again.id))).toEqual([]);
  });

  it('while it stands, his replies and Likes are ignored, even were he counted a follower', async () => {
    // The rule refuses them, not only the follow the block ended: a follow row put back by hand.
    const row = await insertRemoteFollower(db(), await actorOf(alice), masto, 'bob');
    expect(row).toBe(await bobActorId());
    await deliver(like(first.note, 2));
    await deliver(reply(first.note, 2));
    expect(await bobsOn('cheers', first.id)).toBe(0);
    expect(await bobsOn('comments', first.id)).toBe(0);
    await db()
      .prepare('DELETE FROM follows WHERE follower_id = ? AND followed_id = ?')
      .run(await bobActorId(), await actorOf(alice));
  });

  it("to the shared inbox works the same, and drops dave's delivery queued before it", async () => {
    // Dave's entry meets a server that answers 503: its delivery waits for a retry.
    masto.answerInbox('shared', { status: 503 });
    const { note } = await entry(dave);
    await masto.waitForDelivery(
      (d) => d.activity.type === 'Create' && (d.activity.object as Json).id === note,
      15_000,
    );
    masto.answerInbox('shared', null);
    const res = await masto.post('bob', `${vault.url}/inbox`, block(`${vault.url}/users/dave`, 4));
    expect(res.status, res.body).toBe(202);
    await expect
      .poll(async () => (await receivedBlocks()).map((b) => b.blocked))
      .toEqual(['alice', 'dave']);
    expect(await follow(bobActorId(), actorOf(dave))).toBe(0);
    // The retry comes due now rather than in a minute: it is dropped, never delivered.
    await db()
      .prepare("UPDATE federation_queue SET not_before = 0 WHERE channel = 'deliveries'")
      .run();
    await settled();
    const creates = sentTo(masto, 'Create', note);
    expect(creates.map((d) => d.status)).toEqual([503]);
  });

  it('is lifted by its Undo: nothing is restored, but follows and replies work again', async () => {
    await deliver(undo(block(aliceUri, 3), 3));
    expect((await receivedBlocks()).map((b) => b.blocked)).toEqual(['dave']);
    expect(await follow(bobActorId(), actorOf(alice))).toBe(0);
    expect(await follow(actorOf(alice), bobActorId())).toBe(0);
    expect(await bobsOn('comments', first.id)).toBe(0);
    const again = masto.activities.follow('bob', aliceUri);
    await deliver(again);
    await masto.waitForDelivery(
      (d) => d.activity.type === 'Accept' && (d.activity.object as Json).id === again.id,
      15_000,
    );
    expect(await follow(bobActorId(), actorOf(alice))).toBe(1);
    await deliver(reply(first.note, 3));
    expect(await bobsOn('comments', first.id)).toBe(1);
    const res = await followBob();
    expect(res.status).toBe(201);
    expect(await follow(actorOf(alice), bobActorId())).toBe(1);
  });

  it('is lifted by an Undo naming the Block by its id alone, to the shared inbox', async () => {
    await deliver(undo(`${bob}#blocks/4`, 4), `${vault.url}/inbox`);
    expect(await receivedBlocks()).toEqual([]);
  });

  it('from an account not stored here is kept too (its actor fetched): she cannot follow it', async () => {
    const eve = masto.addAccount('eve').id;
    expect(await vault.ctx.actors.findRemoteByUri(eve)).toBeUndefined();
    const res = await masto.post('eve', `${aliceUri}/inbox`, {
      '@context': AS,
      id: `${eve}#blocks/1`,
      type: 'Block',
      actor: eve,
      object: aliceUri,
    });
    expect(res.status, res.body).toBe(202);
    await expect.poll(async () => (await receivedBlocks()).map((b) => b.blocker)).toEqual([eve]);
    const following = await fetch(`${vault.url}/api/users/remote-follows`, {
      method: 'POST',
      headers: { cookie: alice.cookie, origin: vault.url, 'content-type': 'application/json' },
      body: JSON.stringify({ actorUri: eve }),
    });
    expect(following.status).toBe(403);
  });

  it('withdraws the unanswered follow notification of the account that blocks', async () => {
    masto.addAccount('frank');
    const followed = masto.activities.follow('frank', aliceUri);
    expect((await masto.post('frank', `${aliceUri}/inbox`, followed)).status).toBe(202);
    const invites = () =>
      db()
        .prepare(
          `SELECT count(*) FROM notifications n JOIN actors a ON a.id = n.sender_id
           WHERE a.uri = ? AND n.type = 'FOLLOW_INVITE' AND n.status = 'PENDING'`,
        )
        .pluck()
        .get(masto.account('frank').id);
    await expect.poll(invites, { timeout: 15_000 }).toBe(1);
    const frank = masto.account('frank').id;
    const blocked = { '@context': AS, id: `${frank}#blocks/1`, type: 'Block', actor: frank };
    const res = await masto.post('frank', `${aliceUri}/inbox`, { ...blocked, object: aliceUri });
    expect(res.status, res.body).toBe(202);
    await expect.poll(invites, { timeout: 15_000 }).toBe(0);
    expect((await receivedBlocks()).map((b) => b.blocker)).toContain(frank);
  });
});
