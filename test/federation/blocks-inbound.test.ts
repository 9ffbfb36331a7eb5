import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote, type Json } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * A Block from a Mastodon-shaped server (the fake), in the shape Mastodon sends it, signed by
 * the fake's real keys and posted to the real inbox: the follows between the blocker and alice
 * end both ways (nothing of hers goes to the blocker's server any more), the blocker's cheers
 * and comments leave her entries; a Block naming another server's actor or an unknown user
 * changes nothing; its Undo lifts nothing here (ended follows stay ended).
 */

const AS = 'https://www.w3.org/ns/activitystreams';
let vault: TestServer;
let masto: FakeRemote;
let other: FakeRemote;
let alice: { id: number; role: 'USER' };
let aliceUri: string;
let bob: string;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const row = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    activityPubEnabled: true,
  });
  alice = { id: row.id, role: 'USER' };
  aliceUri = `${vault.url}/users/alice`;
  masto = await startFakeRemote();
  other = await startFakeRemote();
  bob = masto.addAccount('bob').id;
  other.addAccount('carol');
  const aliceActor = vault.ctx.actors.localActorId(alice.id);
  const bobActor = insertRemoteFollower(vault.ctx.database.sqlite, aliceActor, masto, 'bob');
  insertRemoteFollower(vault.ctx.database.sqlite, aliceActor, other, 'carol');
  // Alice follows bob too.
  vault.ctx.database.sqlite
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

/** Posts as bob to alice's inbox and waits until it is handled. */
async function deliver(activity: Json) {
  const res = await masto.post('bob', `${aliceUri}/inbox`, activity);
  expect(res.status, res.body).toBe(202);
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

const bobActorId = () => vault.ctx.actors.findRemoteByUri(bob)!.id;
const aliceActorId = () => vault.ctx.actors.localActorId(alice.id);
const follow = (from: number, to: number) =>
  vault.ctx.database.sqlite
    .prepare('SELECT count(*) FROM follows WHERE follower_id = ? AND followed_id = ?')
    .pluck()
    .get(from, to);
const bobsOn = (table: 'cheers' | 'comments', entryId: number) =>
  vault.ctx.database.sqlite
    .prepare(`SELECT count(*) FROM ${table} WHERE actor_id = ? AND beverage_id = ?`)
    .pluck()
    .get(bobActorId(), entryId);

const block = (object: string, n: number) => ({
  '@context': AS,
  id: `${bob}#blocks/${n}`,
  type: 'Block',
  actor: bob,
  object,
});

async function entry() {
  const created = await vault.ctx.beverages.create(alice, {
    type: 'BEER',
    name: 'Saison',
    visibility: 'FOLLOWERS',
  });
  return { id: created.id, note: `${aliceUri}/entries/${created.id}` };
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

describe('a Block received from a remote account', () => {
  let first: { id: number; note: string };

  it('names someone else or an unknown user: nothing changes', async () => {
    first = await entry();
    await deliver({
      '@context': AS,
      id: `${bob}#likes/1`,
      type: 'Like',
      actor: bob,
      object: first.note,
    });
    await deliver(reply(first.note, 1));
    expect(bobsOn('cheers', first.id)).toBe(1);
    expect(bobsOn('comments', first.id)).toBe(1);
    await deliver(block(other.account('carol').id, 1));
    await deliver(block(`${vault.url}/users/nobody`, 2));
    expect(follow(bobActorId(), aliceActorId())).toBe(1);
    expect(follow(aliceActorId(), bobActorId())).toBe(1);
    expect(bobsOn('cheers', first.id)).toBe(1);
    expect(bobsOn('comments', first.id)).toBe(1);
  });

  it('naming alice ends both follows and removes his cheers and comments from her entries', async () => {
    await deliver(block(aliceUri, 3));
    expect(follow(bobActorId(), aliceActorId())).toBe(0);
    expect(follow(aliceActorId(), bobActorId())).toBe(0);
    expect(bobsOn('cheers', first.id)).toBe(0);
    expect(bobsOn('comments', first.id)).toBe(0);
  });

  it("stops deliveries to the blocker's server: a new entry goes to the other follower only", async () => {
    const { note } = await entry();
    await other.waitForDelivery(
      (d) => d.activity.type === 'Create' && (d.activity.object as Json).id === note,
      15_000,
    );
    await vault.ctx.outbox.idle();
    expect(
      masto.deliveries.filter(
        (d) => d.activity.type === 'Create' && (d.activity.object as Json).id === note,
      ),
    ).toEqual([]);
  });

  it('is lifted by its Undo, which restores no follow; bob may follow her again', async () => {
    await deliver({
      '@context': AS,
      id: `${bob}#blocks/3/undo`,
      type: 'Undo',
      actor: bob,
      object: block(aliceUri, 3),
    });
    expect(follow(bobActorId(), aliceActorId())).toBe(0);
    expect(follow(aliceActorId(), bobActorId())).toBe(0);
    const again = masto.activities.follow('bob', aliceUri);
    await deliver(again);
    await masto.waitForDelivery(
      (d) => d.activity.type === 'Accept' && (d.activity.object as Json).id === again.id,
      15_000,
    );
    expect(follow(bobActorId(), aliceActorId())).toBe(1);
  });
});
