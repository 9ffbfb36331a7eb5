import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockAnswerSchema, blockListSchema } from '../../contract/blocks.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';
import {
  activities,
  count,
  deliver,
  follow,
  remoteEntry,
  remoteItems,
  settled,
  startWorld,
  type World,
} from '../federation/inbox-entries-world.ts';

/**
 * Blocking fediverse accounts through the API, against a Mastodon-shaped fake over https on
 * loopback: by handle (WebFinger) or actor URI, the blocker's follow undone with Undo(Follow),
 * the account's entries no longer stored or shown, and following it refused.
 */

let world: World;

beforeAll(async () => {
  sharedTestCertificate().trustInThisProcess();
  world = await startWorld(['alice', 'bob'], { https: true });
});
afterAll(() => world?.close());

function api(path: string, username: string, method = 'GET', body?: unknown) {
  return fetch(`${world.vault.url}/api${path}`, {
    method,
    headers: {
      cookie: world.users[username]!.cookie,
      origin: world.vault.url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
const block = (body: unknown, username = 'alice') => api('/users/blocks', username, 'POST', body);

describe('blocking a fediverse account through the API', () => {
  it('finds an account by its handle, and answers the same block for its actor URI', async () => {
    const byHandle = await block({ handle: `@cooper@${world.remote.host}` });
    expect(byHandle.status).toBe(201);
    const made = blockAnswerSchema.parse(await byHandle.json()).block;
    expect(made).toMatchObject({
      username: null,
      actorUri: world.remote.account('cooper').id,
      handle: `@cooper@${world.remote.host}`,
      displayName: 'Cooper',
    });
    const byUri = await block({ actorUri: world.remote.account('cooper').id });
    expect(byUri.status).toBe(200);
    expect(blockAnswerSchema.parse(await byUri.json()).block.id).toBe(made.id);
    const list = blockListSchema.parse(await (await api('/users/blocks', 'alice')).json());
    expect(list.blocks).toEqual([made]);
  });

  it('says which account it could not find', async () => {
    const res = await block({ handle: `@nobody@${world.remote.host}` });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      message: `No account @nobody@${world.remote.host} was found.`,
    });
  });

  it('undoes the blocker’s follow with an Undo(Follow) and takes the account out of her feed', async () => {
    await follow(world, 'alice');
    await follow(world, 'bob');
    await deliver(world, await activities(world).create(remoteEntry({ name: 'Before' })));
    await settled(world);
    expect((await remoteItems(world, 'alice')).map((i) => i.beverage.name)).toEqual(['Before']);
    const followUri = await world.vault.ctx.database.database
      .prepare(
        `SELECT f.activity_uri FROM follows f JOIN actors a ON a.id = f.follower_id
         WHERE a.user_id = ?`,
      )
      .pluck()
      .get(world.users.alice!.id);
    expect((await block({ actorUri: world.barrel })).status).toBe(201);
    expect(await world.vault.ctx.remoteFollows.following({ id: world.users.alice!.id })).toEqual(
      [],
    );
    const undo = await world.remote.waitForDelivery(
      (d) => d.activity.type === 'Undo' && d.inbox === 'barrel',
      10_000,
    );
    expect((undo.activity.object as { id: string }).id).toBe(followUri);
    expect(await remoteItems(world, 'alice')).toEqual([]);
    // bob, who follows barrel and did not block it, keeps its entries.
    expect((await remoteItems(world, 'bob')).map((i) => i.beverage.name)).toEqual(['Before']);
  });

  it('stores a blocked account’s new entries only for local followers who did not block it', async () => {
    // A follow row beside the block (written directly): the block still wins.
    await follow(world, 'alice');
    await deliver(world, await activities(world).create(remoteEntry({ name: 'For bob' })));
    await settled(world);
    expect((await remoteItems(world, 'alice')).map((i) => i.beverage.name)).toEqual([]);
    expect((await remoteItems(world, 'bob')).map((i) => i.beverage.name)).toEqual([
      'For bob',
      'Before',
    ]);
    expect((await block({ actorUri: world.barrel }, 'bob')).status).toBe(201);
    const stored = await count(world, 'remote_entries');
    await deliver(world, await activities(world).create(remoteEntry({ name: 'For nobody' })));
    await settled(world);
    expect(await count(world, 'remote_entries')).toBe(stored);
  });

  it('refuses to follow a blocked account', async () => {
    const res = await api('/users/remote-follows', 'alice', 'POST', {
      actorUri: world.remote.account('cooper').id,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'You cannot follow this user.' });
  });
});
