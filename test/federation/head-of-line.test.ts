import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';
import {
  activities,
  count,
  deliver,
  follow,
  remoteEntry,
  startWorld,
  type World,
} from './inbox-entries-world.ts';

/**
 * One follower server that accepts deliveries and never answers must not hold up the rest:
 * alice's follower "fan" lives on `silent`, whose shared inbox reads each POST and never says a
 * word; bob follows barrel on another server, whose Create must be stored at once although six
 * deliveries of alice's entries hang.
 */

let world: World;
let silent: FakeRemote;

beforeAll(async () => {
  world = await startWorld(['alice', 'bob']);
  await follow(world, 'bob');
  silent = await startFakeRemote();
  silent.addAccount('fan');
  silent.answerInbox('shared', 'hang');
  const alice = await world.vault.ctx.actors.localActorId(world.users.alice!.id);
  await insertRemoteFollower(world.vault.ctx.database.database, alice, silent, 'fan');
});
afterAll(async () => {
  // The silent server first: its hanging deliveries end, so stopping the vault need not wait.
  await silent?.close();
  await world?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function logEntry(name: string) {
  return world.vault.ctx.beverages.create(
    { id: world.users.alice!.id, role: 'USER' },
    { type: 'BEER', name, rating: 3 },
  );
}

/** Delivery rows of the queue bound for `host`: all of them, and those a worker holds now. */
function deliveriesTo(host: string) {
  return world.vault.ctx.database.database
    .prepare<{ queued: number; held: number }>(
      `SELECT count(*) AS queued,
              coalesce(sum(CASE WHEN locked_until > ? THEN 1 ELSE 0 END), 0) AS held
       FROM federation_queue WHERE host = ?`,
    )
    .get(Date.now(), host);
}

describe('a follower server that accepts deliveries and never answers', () => {
  it('holds at most two delivery workers, and an unrelated incoming Create is stored within 2 s', async () => {
    for (let i = 1; i <= 6; i++) await logEntry(`Silent pour ${i}`);
    // The deliveries reached the silent server and hang there.
    const deadline = Date.now() + 15_000;
    while (silent.deliveries.length < 2) {
      if (Date.now() > deadline) throw new Error('no delivery reached the silent server');
      await sleep(20);
    }

    await deliver(world, await activities(world).create(remoteEntry({ name: 'Unrelated ale' })));
    const answered = Date.now();
    // Polled for 2 s at most: the inbox has workers of its own, so nothing it does waits for
    // the hanging deliveries, however slow the machine.
    while ((await count(world, 'remote_entries')) === 0 && Date.now() - answered < 2_000)
      await sleep(10);
    const storedAfterMs = Date.now() - answered;
    expect(await count(world, 'remote_entries'), `not stored ${storedAfterMs} ms after 202`).toBe(
      1,
    );

    // The silent server's share: two deliveries in flight, the other four waiting their turn.
    expect(await deliveriesTo(silent.host)).toEqual({ queued: 6, held: 2 });
    expect(silent.deliveries).toHaveLength(2);
  });
});
