import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blockAnswerSchema, blockListSchema } from '../../contract/blocks.ts';
import { activityPageSchema } from '../../contract/social.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Blocks between local users through the API (docs/social.md, "Blocks"): the routes and their
 * refusals, and each effect of a block, both ways: follows end, entries are hidden in lists,
 * single reads, the feed and people searches, and follows and shares are refused until the
 * block is lifted.
 */

let vault: TestVault;
let ids: Record<'alice' | 'bob' | 'carol' | 'admin', number>;
let cookies: Record<'alice' | 'bob' | 'carol' | 'admin', string>;

beforeAll(async () => {
  vault = createTestVault();
  const made = {
    alice: await vault.createUser({ username: 'alice', fullName: 'Alice Archer' }),
    bob: await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' }),
    carol: await vault.createUser({ username: 'carol', fullName: 'Carol Cask' }),
    admin: await vault.createUser({ username: 'root_admin', fullName: 'Root', role: 'ADMIN' }),
  };
  ids = { alice: made.alice.id, bob: made.bob.id, carol: made.carol.id, admin: made.admin.id };
  cookies = {
    alice: await vault.login('alice', made.alice.password),
    bob: await vault.login('bob', made.bob.password),
    carol: await vault.login('carol', made.carol.password),
    admin: await vault.login('root_admin', made.admin.password),
  };
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec(
    'DELETE FROM blocks; DELETE FROM notifications; DELETE FROM comments; DELETE FROM cheers; DELETE FROM follows; DELETE FROM feed_items; DELETE FROM shares; DELETE FROM beverages;',
  );
});

const block = (body: unknown, cookie = cookies.alice) =>
  vault.postJson('/api/users/blocks', body, cookie);
const unblock = (id: number, cookie = cookies.alice) =>
  vault.request(`/api/users/blocks/${id}`, { method: 'DELETE', cookie });
const follow = (id: number, cookie: string) =>
  vault.postJson(`/api/users/${id}/follow`, {}, cookie);
async function blocksOf(cookie = cookies.alice) {
  const res = await vault.request('/api/users/blocks', { cookie });
  expect(res.status).toBe(200);
  return blockListSchema.parse(await json(res)).blocks;
}
async function blockBob(): Promise<number> {
  const res = await block({ username: 'bob' });
  expect(res.status).toBe(201);
  return blockAnswerSchema.parse(await json(res)).block.id;
}
async function entryNames(ownerId: number, cookie: string): Promise<string[]> {
  const res = await vault.request(`/api/beverages?userId=${ownerId}`, { cookie });
  expect(res.status).toBe(200);
  return ((await json(res)).beverages as { name: string }[]).map((b) => b.name);
}
async function feedNames(cookie: string): Promise<string[]> {
  await vault.ctx.outbox.idle();
  const res = await vault.request('/api/activity', { cookie });
  expect(res.status).toBe(200);
  return activityPageSchema.parse(await json(res)).activities.map((a) => a.beverage.name);
}
async function searchNames(q: string, cookie: string): Promise<string[]> {
  const res = await vault.request(`/api/users/search?q=${q}`, { cookie });
  expect(res.status).toBe(200);
  return ((await json(res)).users as { username: string }[]).map((u) => u.username);
}
const followerNames = async (cookie: string) =>
  (
    (await json(await vault.request('/api/users/followers', { cookie }))).followers as {
      user?: { username: string };
    }[]
  ).map((f) => f.user?.username);
const log = (cookie: string, name: string, visibility = 'MEMBERS') =>
  vault.logEntry(cookie, { name, type: 'BEER', subtype: 'IPA', visibility });

describe('the blocks routes', () => {
  it('blocks a local user by username, lists the block, and answers the same block when asked again', async () => {
    const first = await block({ username: 'bob' });
    expect(first.status).toBe(201);
    const { block: made } = blockAnswerSchema.parse(await json(first));
    expect(made).toMatchObject({
      username: 'bob',
      actorUri: null,
      handle: null,
      displayName: 'Bob Brewer',
    });
    const again = await block({ username: 'bob' });
    expect(again.status).toBe(200);
    expect(blockAnswerSchema.parse(await json(again)).block.id).toBe(made.id);
    expect(await blocksOf()).toEqual([made]);
    expect(await blocksOf(cookies.bob)).toEqual([]);
  });

  it('takes this vault’s own actor address or handle for a local user', async () => {
    const host = new URL(vault.origin).host;
    const byUri = await block({ actorUri: `${vault.origin}/users/bob` });
    expect(byUri.status).toBe(201);
    const byHandle = await block({ handle: `@carol@${host}` });
    expect(byHandle.status).toBe(201);
    expect((await blocksOf()).map((b) => b.username).sort()).toEqual(['bob', 'carol']);
  });

  it('refuses to block yourself, an unknown user, and a body without exactly one target', async () => {
    const self = await block({ username: 'alice' });
    expect(self.status).toBe(400);
    expect(await json(self)).toEqual({ message: "You can't block yourself." });
    const unknown = await block({ username: 'nobody' });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({
      message: 'There is no user called nobody on this vault.',
    });
    for (const body of [{}, { username: 'bob', handle: '@x@example.com' }, { userId: 2 }]) {
      const res = await block(body);
      expect(res.status).toBe(400);
      expect((await json(res)).message).toEqual(expect.any(String));
    }
    const notUrl = await block({ actorUri: 'ftp://example.com/u' });
    expect(notUrl.status).toBe(400);
    expect(await blocksOf()).toEqual([]);
  });

  it('unblocks with DELETE, and answers 404 for an unknown block or another user’s', async () => {
    const id = await blockBob();
    expect((await unblock(id, cookies.carol)).status).toBe(404);
    expect(await json(await unblock(id + 1000))).toEqual({ message: 'Block not found' });
    expect((await unblock(id)).status).toBe(204);
    expect(await blocksOf()).toEqual([]);
    expect((await unblock(id)).status).toBe(404);
  });

  it('asks for a session', async () => {
    expect((await vault.request('/api/users/blocks')).status).toBe(401);
    expect((await vault.postJson('/api/users/blocks', { username: 'bob' })).status).toBe(401);
  });
});

describe('what a block does', () => {
  it('ends the follows both ways, and the feed items each had of the other', async () => {
    expect((await follow(ids.bob, cookies.alice)).status).toBe(201);
    expect((await follow(ids.alice, cookies.bob)).status).toBe(201);
    await log(cookies.alice, 'Alice beer');
    await log(cookies.bob, 'Bob beer');
    expect(await feedNames(cookies.alice)).toEqual(['Bob beer']);
    await blockBob();
    expect(await followerNames(cookies.alice)).toEqual([]);
    expect(await followerNames(cookies.bob)).toEqual([]);
    expect(await feedNames(cookies.alice)).toEqual([]);
    expect(await feedNames(cookies.bob)).toEqual([]);
  });

  it('withdraws the unanswered follow invitation the blocked user had sent', async () => {
    expect((await follow(ids.alice, cookies.bob)).status).toBe(201);
    await vault.ctx.outbox.idle();
    const invites = async () =>
      (await vault.ctx.notifications.list({ id: ids.alice, role: 'USER' })).filter(
        (n) => n.type === 'FOLLOW_INVITE' && n.status === 'PENDING',
      );
    expect(await invites()).toHaveLength(1);
    await blockBob();
    await vault.ctx.outbox.idle();
    expect(await invites()).toHaveLength(0);
  });

  it('hides each side’s entries from the other, even MEMBERS ones, but not from others', async () => {
    const alices = await log(cookies.alice, 'Alice members');
    const bobs = await log(cookies.bob, 'Bob members');
    await blockBob();
    expect(await entryNames(ids.alice, cookies.bob)).toEqual([]);
    expect(await entryNames(ids.bob, cookies.alice)).toEqual([]);
    expect(
      (await vault.request(`/api/beverages/${alices.id}`, { cookie: cookies.bob })).status,
    ).toBe(404);
    expect(
      (await vault.request(`/api/beverages/${bobs.id}`, { cookie: cookies.alice })).status,
    ).toBe(404);
    expect(await entryNames(ids.alice, cookies.carol)).toEqual(['Alice members']);
    expect(await entryNames(ids.bob, cookies.admin)).toEqual(['Bob members']);
  });

  it('hides each side’s comments under a third person’s entry, and refuses cheers and comments on the other’s entries', async () => {
    const carols = await log(cookies.carol, 'Carol members');
    const alices = await log(cookies.alice, 'Alice members');
    const comment = (content: string, cookie: string, id = carols.id) =>
      vault.postJson(`/api/beverages/${id}/comments`, { content }, cookie);
    expect((await comment('From Alice', cookies.alice)).status).toBe(201);
    expect((await comment('From Bob', cookies.bob)).status).toBe(201);
    await blockBob();
    const thread = async (cookie: string) =>
      (
        (await json(await vault.request(`/api/beverages/${carols.id}/comments`, { cookie })))
          .comments as { content: string }[]
      ).map((c) => c.content);
    expect(await thread(cookies.alice)).toEqual(['From Alice']);
    expect(await thread(cookies.bob)).toEqual(['From Bob']);
    expect(await thread(cookies.carol)).toEqual(['From Alice', 'From Bob']);
    expect((await comment('Again', cookies.bob, alices.id)).status).toBe(404);
    const cheer = await vault.postJson(`/api/beverages/${alices.id}/cheer`, {}, cookies.bob);
    expect(cheer.status).toBe(404);
  });

  it('keeps blocked people out of each other’s searches', async () => {
    expect(await searchNames('bob', cookies.alice)).toEqual(['bob']);
    await blockBob();
    expect(await searchNames('bob', cookies.alice)).toEqual([]);
    expect(await searchNames('alice', cookies.bob)).toEqual([]);
    expect(await searchNames('bob', cookies.carol)).toEqual(['bob']);
  });

  it('refuses follows both ways with the same message, which does not say who blocked whom', async () => {
    await blockBob();
    for (const [id, cookie] of [
      [ids.alice, cookies.bob],
      [ids.bob, cookies.alice],
    ] as const) {
      const res = await follow(id, cookie);
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual({ message: 'You cannot follow this user.' });
    }
    expect((await follow(ids.alice, cookies.carol)).status).toBe(201);
  });

  it('hides an invitation sent before the block and keeps it from being taken up', async () => {
    const alices = await log(cookies.alice, 'Alice invites');
    const shared = await vault.postJson(
      `/api/beverages/${alices.id}/share`,
      { userId: ids.bob },
      cookies.alice,
    );
    expect(shared.status).toBe(200);
    await vault.ctx.outbox.idle();
    const list = await json(await vault.request('/api/notifications', { cookie: cookies.bob }));
    const invite = (list.notifications as { id: number; type: string }[]).find(
      (n) => n.type === 'SHARE_INVITE',
    )!;
    await blockBob();
    const after = await json(await vault.request('/api/notifications', { cookie: cookies.bob }));
    expect(after.notifications).toEqual([]);
    const res = await vault.postJson(
      `/api/notifications/${invite.id}/respond`,
      { action: 'ACCEPT', status: 'TRIED' },
      cookies.bob,
    );
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'Notification not found' });
    expect(await entryNames(ids.bob, cookies.bob)).toEqual([]);
  });

  it('refuses shares both ways, and an admin’s share on the owner’s behalf', async () => {
    const alices = await log(cookies.alice, 'Alice shares');
    const bobs = await log(cookies.bob, 'Bob shares');
    await blockBob();
    for (const [entryId, userId, cookie] of [
      [alices.id, ids.bob, cookies.alice],
      [bobs.id, ids.alice, cookies.bob],
      [alices.id, ids.bob, cookies.admin],
    ] as const) {
      const res = await vault.postJson(`/api/beverages/${entryId}/share`, { userId }, cookie);
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual({ message: 'You cannot share this entry with this user.' });
    }
    const toCarol = await vault.postJson(
      `/api/beverages/${alices.id}/share`,
      { userId: ids.carol },
      cookies.alice,
    );
    expect(toCarol.status).toBe(200);
  });

  it('lifts every refusal when unblocked, without bringing the follows back', async () => {
    expect((await follow(ids.bob, cookies.alice)).status).toBe(201);
    await log(cookies.bob, 'Bob later');
    const id = await blockBob();
    expect((await unblock(id)).status).toBe(204);
    expect(await followerNames(cookies.bob)).toEqual([]);
    expect(await entryNames(ids.bob, cookies.alice)).toEqual(['Bob later']);
    expect(await searchNames('bob', cookies.alice)).toEqual(['bob']);
    expect((await follow(ids.bob, cookies.alice)).status).toBe(201);
  });
});

describe('the lookup other features call', () => {
  it('tells whether a user and an actor are blocked either way', async () => {
    const bobActor = await vault.ctx.actors.localActorId(ids.bob);
    const aliceActor = await vault.ctx.actors.localActorId(ids.alice);
    const carolActor = await vault.ctx.actors.localActorId(ids.carol);
    expect(await vault.ctx.blocks.isBlockedEitherWay(ids.alice, bobActor)).toBe(false);
    await blockBob();
    expect(await vault.ctx.blocks.isBlockedEitherWay(ids.alice, bobActor)).toBe(true);
    expect(await vault.ctx.blocks.isBlockedEitherWay(ids.bob, aliceActor)).toBe(true);
    expect(await vault.ctx.blocks.isBlockedEitherWay(ids.alice, carolActor)).toBe(false);
    expect(await vault.ctx.blocks.isBlockedEitherWay(ids.carol, bobActor)).toBe(false);
  });

  it('tells whether one of two local users blocked the other, whichever asks', async () => {
    const between = (one: number, other: number) =>
      vault.ctx.blocks.isBlockedBetweenUsers(one, other);
    expect(await between(ids.alice, ids.bob)).toBe(false);
    await blockBob();
    expect([await between(ids.alice, ids.bob), await between(ids.bob, ids.alice)]).toEqual([
      true,
      true,
    ]);
    expect([await between(ids.alice, ids.carol), await between(ids.carol, ids.bob)]).toEqual([
      false,
      false,
    ]);
  });
});
