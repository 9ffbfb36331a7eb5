import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RemoteActorData } from '../../src/actors/repository.ts';
import { createOutbox } from '../../src/outbox/outbox.ts';
import { createOutboxRepository } from '../../src/outbox/repository.ts';
import type { FollowDeliveryJob } from '../../federation/follow-delivery.ts';
import { registerFollowHandoff } from '../../federation/follow-handoff.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The outbox handlers that hand follows to Fedify (federation/follow-handoff.ts), with the
 * hand-off replaced by a recorder: which activity each write sends, to whom, as whom; nothing
 * for a user whose federation is off; a failed hand-off is tried again.
 */

let vault: TestVault;
let aliceId: number;
let sent: FollowDeliveryJob[];
let failures: number;
let outbox: ReturnType<typeof createOutbox>;

const bob: RemoteActorData = {
  uri: 'https://mastodon.example/users/bob',
  inboxUrl: 'https://mastodon.example/users/bob/inbox',
  sharedInboxUrl: 'https://mastodon.example/inbox',
  handle: '@bob@mastodon.example',
  displayName: 'Bob',
  summary: '',
  avatarUrl: null,
};

beforeAll(async () => {
  vault = createTestVault({ origin: 'https://vault.example' });
  // This test's outbox delivers instead of the app's, with its own follow handlers.
  await vault.ctx.outbox.stop();
  outbox = createOutbox({
    repo: createOutboxRepository(vault.ctx.database.database),
    transaction: vault.ctx.database.transaction,
    localUserOf: (actorId) => vault.ctx.actors.userIdOf(actorId),
  });
  registerFollowHandoff(outbox, {
    origin: vault.origin,
    users: vault.ctx.users,
    actors: vault.ctx.actors,
    federation: { load: () => Promise.reject(new Error('not in this test')) },
    send: (job) => {
      if (failures > 0) {
        failures--;
        return Promise.reject(new Error('the queue is unavailable'));
      }
      sent.push(job);
      return Promise.resolve();
    },
  });
  outbox.start();
  aliceId = (await vault.createUser({ username: 'alice', activityPubEnabled: true })).id;
});
afterAll(async () => {
  await outbox.stop();
  await vault.close();
});
beforeEach(() => {
  sent = [];
  failures = 0;
});

async function settle(check: () => boolean) {
  const end = Date.now() + 10_000;
  while (!check() && Date.now() < end) {
    await outbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('follows leaving the vault', () => {
  it('sends a Follow as alice to bob’s inbox, its id the follow row’s', async () => {
    const follow = await vault.ctx.remoteFollows.follow({ id: aliceId }, bob);
    await settle(() => sent.length > 0);
    const row = await vault.ctx.remoteFollows.followOf({ id: aliceId }, follow.actorId);
    expect(sent).toEqual([
      {
        kind: 'Follow',
        username: 'alice',
        followUri: expect.stringMatching(/^https:\/\/vault\.example\/users\/alice#follows\//),
        follower: 'https://vault.example/users/alice',
        followed: bob.uri,
        recipient: { uri: bob.uri, inboxUrl: bob.inboxUrl, sharedInboxUrl: bob.sharedInboxUrl },
      },
    ]);
    expect(row?.state).toBe('PENDING');
  });

  it('sends Undo of that Follow on unfollow, after a failed hand-off is tried again', async () => {
    const follow = (await vault.ctx.remoteFollows.followOf(
      { id: aliceId },
      (await vault.ctx.remoteFollows.knownActor(bob.uri))!.id,
    ))!;
    failures = 1;
    await vault.ctx.remoteFollows.unfollow({ id: aliceId }, follow.actorId);
    await settle(() => sent.length > 0);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      kind: 'Undo',
      follower: 'https://vault.example/users/alice',
      followed: bob.uri,
    });
    expect(failures).toBe(0);
  });

  it('sends Reject of bob’s Follow when alice removes him as a follower', async () => {
    const followUri = 'https://mastodon.example/follows/1';
    await vault.ctx.remoteFollows.receiveFollow('alice', bob, followUri);
    const actorId = (await vault.ctx.remoteFollows.knownActor(bob.uri))!.id;
    await vault.ctx.remoteFollows.removeFollower({ id: aliceId }, actorId);
    await settle(() => sent.length > 0);
    expect(sent).toEqual([
      expect.objectContaining({
        kind: 'Reject',
        username: 'alice',
        followUri,
        follower: bob.uri,
        followed: 'https://vault.example/users/alice',
      }),
    ]);
  });

  it('records the removal as a Reject row, and still sends an older Undo row marked as Reject', async () => {
    const followUri = 'https://mastodon.example/follows/9';
    await vault.ctx.remoteFollows.receiveFollow('alice', bob, followUri);
    const actorId = (await vault.ctx.remoteFollows.knownActor(bob.uri))!.id;
    const types = async () =>
      (
        await vault.ctx.database.database
          .prepare<{ type: string }>(
            'SELECT type FROM activities WHERE object_actor_id = ? ORDER BY id',
          )
          .all(actorId)
      ).map((row) => row.type);
    await vault.ctx.remoteFollows.removeFollower({ id: aliceId }, actorId);
    expect((await types()).at(-1)).toBe('Reject');
    await settle(() => sent.length > 0);
    sent.length = 0;

    // A row an earlier version recorded: an Undo whose payload says it is a Reject.
    const aliceActor = await vault.ctx.actors.localActorId(aliceId);
    await vault.ctx.database.transaction(() =>
      outbox.record({
        actorId: aliceActor,
        type: 'Undo',
        objectActorId: actorId,
        payload: { follow: followUri, as: 'Reject' },
        createdAt: Date.now(),
      }),
    );
    await settle(() => sent.length > 0);
    expect(sent).toEqual([
      expect.objectContaining({ kind: 'Reject', followUri, follower: bob.uri }),
    ]);
  });

  it('sends nothing for a user whose federation is off, and lets the record go', async () => {
    await vault.ctx.remoteFollows.receiveFollow('alice', bob, 'https://mastodon.example/follows/2');
    const actorId = (await vault.ctx.remoteFollows.knownActor(bob.uri))!.id;
    await vault.ctx.users.update(aliceId, { activityPubEnabled: false });
    await vault.ctx.remoteFollows.removeFollower({ id: aliceId }, actorId);
    await outbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent).toEqual([]);
    const pending = await vault.ctx.database.database
      .prepare('SELECT count(*) FROM outbox')
      .pluck()
      .get();
    expect(pending).toBe(0);
  });
});
