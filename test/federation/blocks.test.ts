import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockAnswerSchema } from '../../contract/blocks.ts';
import type { Json } from '../helpers/fake-remote.ts';
import { settled, startWorld, type World } from './inbox-entries-world.ts';

/**
 * Blocks seen from a Mastodon-shaped server (the fake): a follower alice blocks gets a
 * Reject(Follow) of its Follow, and a Follow from an account alice blocked is answered with a
 * Reject and never makes a follower, until she unblocks it.
 */

let world: World;
let aliceId: string;

beforeAll(async () => {
  world = await startWorld(['alice']);
  aliceId = `${world.vault.url}/users/alice`;
  // Fedify loads on first need: loaded here, the inbox answers within the fake's 5 s.
  await world.vault.ctx.federation.load();
});
afterAll(() => world?.close());

const objectIdOf = (activity: Json) => {
  const object = activity.object;
  return typeof object === 'string' ? object : (object as Json).id;
};
const isFollower = (name: string) =>
  world.vault.ctx.follows.isFollower(world.users.alice!.id, world.remote.account(name).id);

const pendingInvites = async () =>
  (await world.vault.ctx.notifications.list({ id: world.users.alice!.id, role: 'USER' })).filter(
    (n) => n.type === 'FOLLOW_INVITE' && n.status === 'PENDING',
  );

async function followAlice(name: string) {
  const activity = world.remote.activities.follow(name, aliceId);
  expect((await world.remote.post(name, `${aliceId}/inbox`, activity)).status).toBe(202);
  return activity;
}

async function block(actorUri: string): Promise<number> {
  const res = await fetch(`${world.vault.url}/api/users/blocks`, {
    method: 'POST',
    headers: {
      cookie: world.users.alice!.cookie,
      origin: world.vault.url,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ actorUri }),
  });
  expect(res.status).toBe(201);
  return blockAnswerSchema.parse(await res.json()).block.id;
}

describe('blocking a remote account', () => {
  it('sends a Reject of its Follow to a remote follower alice blocks, signed by alice, and withdraws its invitation', async () => {
    const follow = await followAlice('cooper');
    await world.remote.waitForDelivery(
      (d) => d.activity.type === 'Accept' && objectIdOf(d.activity) === follow.id,
      10_000,
    );
    expect(await isFollower('cooper')).toBe(true);
    await world.vault.ctx.outbox.idle();
    expect(await pendingInvites()).toHaveLength(1);
    await block(world.remote.account('cooper').id);
    expect(await isFollower('cooper')).toBe(false);
    expect(await pendingInvites()).toHaveLength(0);
    const reject = await world.remote.waitForDelivery(
      (d) => d.activity.type === 'Reject' && objectIdOf(d.activity) === follow.id,
      10_000,
    );
    expect(reject.keyOwner).toBe(aliceId);
    expect(reject.activity.actor).toBe(aliceId);
  });

  it('sends the blocked account a Block naming it, signed by alice, shaped as Mastodon sends it', async () => {
    const cooper = world.remote.account('cooper').id;
    const sent = await world.remote.waitForDelivery(
      (d) => d.activity.type === 'Block' && d.activity.object === cooper,
      10_000,
    );
    expect(sent.keyOwner).toBe(aliceId);
    expect(sent.activity.actor).toBe(aliceId);
    expect(sent.inbox).toBe('cooper');
    const [only] = await world.vault.ctx.blocks.list({ id: world.users.alice!.id });
    expect(sent.activity.id).toBe(`${aliceId}#blocks/${only!.id}`);
  });

  it('answers a Follow from a blocked account with a Reject and keeps it out of her followers', async () => {
    const before = await world.vault.ctx.notifications.list({
      id: world.users.alice!.id,
      role: 'USER',
    });
    const follow = await followAlice('cooper');
    const reject = await world.remote.waitForDelivery(
      (d) => d.activity.type === 'Reject' && objectIdOf(d.activity) === follow.id,
      10_000,
    );
    expect(reject.keyOwner).toBe(aliceId);
    await settled(world);
    await world.vault.ctx.outbox.idle();
    expect(await isFollower('cooper')).toBe(false);
    expect(
      await world.vault.ctx.notifications.list({ id: world.users.alice!.id, role: 'USER' }),
    ).toHaveLength(before.length);
    expect(
      world.remote.deliveries.some(
        (d) => d.activity.type === 'Accept' && objectIdOf(d.activity) === follow.id,
      ),
    ).toBe(false);
  });

  it('accepts its Follow again once alice unblocks it', async () => {
    const [only] = await world.vault.ctx.blocks.list({ id: world.users.alice!.id });
    await world.vault.ctx.blocks.unblock({ id: world.users.alice!.id }, only!.id);
    const undo = await world.remote.waitForDelivery(
      (d) =>
        d.activity.type === 'Undo' && objectIdOf(d.activity) === `${aliceId}#blocks/${only!.id}`,
      10_000,
    );
    expect(undo.keyOwner).toBe(aliceId);
    expect((undo.activity.object as Json).type).toBe('Block');
    expect((undo.activity.object as Json).object).toBe(world.remote.account('cooper').id);
    const follow = await followAlice('cooper');
    await world.remote.waitForDelivery(
      (d) => d.activity.type === 'Accept' && objectIdOf(d.activity) === follow.id,
      10_000,
    );
    expect(await isFollower('cooper')).toBe(true);
  });
});
