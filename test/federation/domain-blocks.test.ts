import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activities,
  count,
  deliver,
  follow,
  login,
  remoteEntry,
  remoteItems,
  settled,
  startWorld,
  type World,
} from './inbox-entries-world.ts';

/**
 * A server an admin blocks, against a real vault on loopback and a fake remote server that
 * signs what it sends: its deliveries are refused at the door (before its key is fetched),
 * follows with its actors end, its entries leave the feeds, and nothing is looked up there.
 */

let world: World;
let admin: string;
let blockId: number;

beforeAll(async () => {
  world = await startWorld(['alice']);
  admin = await login(world.vault, world.vault.adminUsername, world.vault.adminPassword);
  await follow(world, 'alice');
  // Fedify loads on the first delivery; loaded here, no delivery waits for it on a busy machine.
  await world.vault.ctx.federation.load();
});
afterAll(() => world?.close());

const db = () => world.vault.ctx.database.database;
const api = (path: string, init: RequestInit & { cookie: string }) =>
  fetch(`${world.vault.url}${path}`, {
    ...init,
    headers: {
      cookie: init.cookie,
      origin: world.vault.url,
      'content-type': 'application/json',
    },
  });
const keyFetches = (name: string) =>
  world.remote.gets.filter((get) => get.path.startsWith(`/users/${name}`)).length;
const followsWith = (actorUri: string) =>
  db()
    .prepare(
      `SELECT count(*) FROM follows f JOIN actors a ON a.id IN (f.follower_id, f.followed_id)
       WHERE a.uri = ?`,
    )
    .pluck()
    .get(actorUri);

describe('blocking a server', () => {
  it('ends the follows both ways with its actors and removes their entries from the feeds', async () => {
    // barrel follows alice as well: a row as an accepted incoming Follow leaves it.
    const barrelActor = (await db()
      .prepare('SELECT id FROM actors WHERE uri = ?')
      .pluck()
      .get(world.barrel)) as number;
    await db()
      .prepare(
        `INSERT INTO follows (follower_id, followed_id, state, activity_uri, created_at)
         VALUES (?, ?, 'ACCEPTED', ?, ?)`,
      )
      .run(
        barrelActor,
        await world.vault.ctx.actors.localActorId(world.users.alice!.id),
        `${world.remote.origin}/follows/1`,
        Date.now(),
      );
    await deliver(world, await activities(world).create(remoteEntry()));
    await settled(world);
    expect(await remoteItems(world, 'alice')).toHaveLength(1);
    expect(await followsWith(world.barrel)).toBe(2);
    const deliveriesBefore = world.remote.deliveries.length;
    const outboxBefore = await db().prepare('SELECT count(*) FROM outbox').pluck().get();

    const res = await api('/api/domain-blocks', {
      method: 'POST',
      cookie: admin,
      body: JSON.stringify({ domain: world.remote.host, note: 'Floods us' }),
    });
    expect(res.status).toBe(201);
    blockId = ((await res.json()) as { domainBlock: { id: number } }).domainBlock.id;

    expect(await followsWith(world.barrel)).toBe(0);
    expect(await remoteItems(world, 'alice')).toEqual([]);
    expect(await count(world, 'remote_entries')).toBe(0);
    // No Undo, no Reject: nothing is recorded for, or sent to, the blocked server.
    expect(await db().prepare('SELECT count(*) FROM outbox').pluck().get()).toBe(outboxBefore);
    await settled(world);
    expect(world.remote.deliveries.length).toBe(deliveriesBefore);
  });

  it('refuses its Create with 403 on the shared and the personal inbox, stores nothing and never fetches its key', async () => {
    await follow(world, 'alice', `${world.remote.origin}/users/cooper`);
    const create = await activities(world, { username: 'cooper', fullName: 'Cooper' }).create(
      remoteEntry(),
    );
    for (const inbox of [`${world.vault.url}/inbox`, `${world.vault.url}/users/alice/inbox`]) {
      const res = await world.remote.post('cooper', inbox, create);
      expect(res.status).toBe(403);
      expect(res.json().message).toBe('This server is blocked by this vault.');
    }
    await settled(world);
    expect(await count(world, 'remote_entries')).toBe(0);
    expect(keyFetches('cooper')).toBe(0);
  });

  it('refuses a delivery whose key id is on the blocked server even if its actor claims another', async () => {
    const create = await activities(world, { username: 'cooper', fullName: 'Cooper' }).create(
      remoteEntry(),
    );
    const res = await world.remote.post('cooper', `${world.vault.url}/inbox`, {
      ...create,
      actor: 'https://elsewhere.example/users/cooper',
    });
    expect(res.status).toBe(403);
    expect(keyFetches('cooper')).toBe(0);
  });

  it('refuses to look up its accounts, by handle and by address, without contacting it', async () => {
    const getsBefore = world.remote.gets.length;
    for (const query of [`@barrel@${world.remote.host}`, `${world.remote.origin}/users/barrel`]) {
      const res = await api('/api/users/lookup', {
        method: 'POST',
        cookie: world.users.alice!.cookie,
        body: JSON.stringify({ query }),
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(
        `${world.remote.host} is a blocked server: this vault does not contact it.`,
      );
    }
    expect(world.remote.gets.length).toBe(getsBefore);
  });

  it('takes deliveries again once the block is lifted (the key is fetched then)', async () => {
    const res = await api(`/api/domain-blocks/${blockId}`, { method: 'DELETE', cookie: admin });
    expect(res.status).toBe(204);
    const create = await activities(world, { username: 'cooper', fullName: 'Cooper' }).create(
      remoteEntry({ name: 'After the block' }),
    );
    await deliver(world, create, 'cooper');
    await settled(world);
    expect(keyFetches('cooper')).toBeGreaterThan(0);
    expect((await remoteItems(world, 'alice')).map((item) => item.beverage.name)).toEqual([
      'After the block',
    ]);
  });
});
