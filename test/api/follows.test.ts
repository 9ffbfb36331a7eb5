import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  followerSchema,
  followingItemSchema,
  userSearchResultSchema,
  USER_SEARCH_MAX_RESULTS,
} from '../../contract/social.ts';
import { z } from 'zod';
import { openConfiguredDatabase } from '../../src/db/client.ts';
import { OTHER_PROCESS_WRITES_SEEN_WITHIN_MS } from '../../src/db/read-cache.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let alice: string;
let bob: string;
let carol: string;
let admin: string;
let ids: Record<'alice' | 'bob' | 'carol' | 'admin' | 'zoe', number>;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  const c = await vault.createUser({ username: 'carol', fullName: 'Carole Čapek' });
  const ad = await vault.createUser({ username: 'root_admin', fullName: 'Root', role: 'ADMIN' });
  const z = await vault.createUser({ username: 'zoe', fullName: 'Zoë Ångström' });
  ids = { alice: a.id, bob: b.id, carol: c.id, admin: ad.id, zoe: z.id };
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  carol = await vault.login('carol', c.password);
  admin = await vault.login('root_admin', ad.password);
});
afterAll(() => vault.close());

const searchPage = z.object({ users: z.array(userSearchResultSchema) });
const followingList = z.object({ following: z.array(followingItemSchema) });
const followerList = z.object({ followers: z.array(followerSchema) });

const get = (path: string, cookie?: string) => vault.request(path, cookie ? { cookie } : {});
const follow = (id: number, cookie: string) =>
  vault.postJson(`/api/users/${id}/follow`, {}, cookie);
const unfollow = (id: number, cookie: string) =>
  vault.request(`/api/users/${id}/follow`, { method: 'DELETE', cookie });
async function search(q: string, cookie = alice) {
  const res = await get(`/api/users/search?q=${encodeURIComponent(q)}`, cookie);
  expect(res.status).toBe(200);
  return searchPage.parse(await json(res)).users;
}
async function followingOf(cookie: string) {
  const res = await get('/api/users/following', cookie);
  expect(res.status).toBe(200);
  return followingList.parse(await json(res)).following;
}
async function followersOf(cookie: string) {
  const res = await get('/api/users/followers', cookie);
  expect(res.status).toBe(200);
  return followerList.parse(await json(res)).followers;
}
const count = async (table: string) =>
  (await vault.ctx.database.database
    .prepare(`SELECT count(*) FROM ${table}`)
    .pluck()
    .get()) as number;

describe('searching for people to follow', () => {
  it('finds local users by username and by full name, in any case and without accents', async () => {
    expect((await search('BO')).map((u) => u.username)).toEqual(['bob']);
    expect((await search('brewer')).map((u) => u.username)).toEqual(['bob']);
    expect((await search('capek')).map((u) => u.username)).toEqual(['carol']);
    expect((await search('ANGSTRÖM')).map((u) => u.username)).toEqual(['zoe']);
    expect((await search('  zoë  ')).map((u) => u.username)).toEqual(['zoe']);
  });

  it('returns each user with id, username, full name, avatar and whether the caller follows them', async () => {
    const [found] = await search('bob');
    expect(found).toEqual({
      id: ids.bob,
      username: 'bob',
      fullName: 'Bob Brewer',
      avatarPath: null,
      following: false,
      requested: false,
    });
  });

  it('never lists the caller', async () => {
    expect((await search('alice')).map((u) => u.username)).toEqual([]);
    expect((await search('alice', bob)).map((u) => u.username)).toEqual(['alice']);
  });

  it('refuses fewer than two characters after trimming', async () => {
    for (const q of ['', 'a', '  b  ']) {
      const res = await get(`/api/users/search?q=${encodeURIComponent(q)}`, alice);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message: 'Enter at least two characters to search.' });
    }
    const missing = await get('/api/users/search', alice);
    expect(missing.status).toBe(400);
    expect(await json(missing)).toEqual({ message: 'Enter at least two characters to search.' });
  });

  it('returns at most twenty users', async () => {
    for (let i = 0; i < 25; i++) await vault.createUser({ username: `many_${i}` });
    const found = await search('many_');
    expect(found).toHaveLength(USER_SEARCH_MAX_RESULTS);
  });

  it('sees a user created or renamed since the last search', async () => {
    expect(await search('quentin')).toEqual([]);
    const q = await vault.createUser({ username: 'quentin', fullName: 'Quentin Q' });
    expect((await search('quentin')).map((u) => u.id)).toEqual([q.id]);
    await vault.ctx.users.update(q.id, { fullName: 'Quincy Éclair' });
    expect((await search('eclair')).map((u) => u.id)).toEqual([q.id]);
  });

  it('sees a rename by another process (the CLI) within a moment', async () => {
    const other = openConfiguredDatabase(vault.config);
    const rename = other.database.prepare('UPDATE users SET full_name = ? WHERE id = ?');
    await other.database.transaction(() => rename.run('Bobby Tables', ids.bob));
    await other.close();
    await new Promise((resolve) => setTimeout(resolve, OTHER_PROCESS_WRITES_SEEN_WITHIN_MS + 50));
    expect((await search('tables')).map((u) => u.username)).toEqual(['bob']);
    await vault.ctx.users.update(ids.bob, { fullName: 'Bob Brewer' });
    expect(await search('tables')).toEqual([]);
  });

  it('lists first those whose username or a word of whose name starts with the search', async () => {
    await vault.createUser({ username: 'ambrose', fullName: 'Ambrose Abbot' });
    expect((await search('br')).map((u) => u.username)).toEqual(['bob', 'ambrose']);
  });

  it('takes the search text literally', async () => {
    expect(await search('%%')).toEqual([]);
    expect(await search('__')).toEqual([]);
  });

  it('is answered to anonymous requests with 401', async () => {
    const res = await get('/api/users/search?q=bob');
    expect(res.status).toBe(401);
  });
});

describe('following a user', () => {
  it('is immediate: 201 with the follow, listed among the following and the followers', async () => {
    const res = await follow(ids.bob, alice);
    expect(res.status).toBe(201);
    const { follow: item } = z.object({ follow: followingItemSchema }).parse(await json(res));
    expect(item.user).toEqual({
      id: ids.bob,
      username: 'bob',
      fullName: 'Bob Brewer',
      avatarPath: null,
    });
    expect(item.state).toBe('ACCEPTED');
    expect(Number.isNaN(Date.parse(item.followedAt))).toBe(false);
    expect(await followingOf(alice)).toEqual([item]);
    expect(await followersOf(bob)).toEqual([
      {
        kind: 'local',
        actorId: await vault.ctx.actors.existingLocalActorId(ids.alice),
        user: { id: ids.alice, username: 'alice', fullName: 'Alice Archer', avatarPath: null },
        followedAt: item.followedAt,
      },
    ]);
    expect((await search('bob')).map((u) => u.following)).toEqual([true]);
  });

  it('refuses following twice with 409, changing nothing', async () => {
    const before = await count('follows');
    const res = await follow(ids.bob, alice);
    expect(res.status).toBe(409);
    expect(await json(res)).toEqual({ message: 'You already follow bob.' });
    expect(await count('follows')).toBe(before);
  });

  it('refuses following yourself with 400', async () => {
    const res = await follow(ids.alice, alice);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: "You can't follow yourself." });
  });

  it('refuses an unknown user with 404 and a malformed id with 400', async () => {
    const unknown = await follow(999_999, alice);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ message: 'User not found' });
    const malformed = await vault.postJson('/api/users/abc/follow', {}, alice);
    expect(malformed.status).toBe(400);
    expect((await json(malformed)).message).toMatch(/User id/);
  });

  it('refuses a body that is not an empty JSON object, changing nothing; no body or an empty one is fine', async () => {
    const before = await count('follows');
    const send = (body: string, type = 'application/json') =>
      vault.request(`/api/users/${ids.carol}/follow`, {
        method: 'POST',
        cookie: bob,
        headers: { 'content-type': type, origin: vault.config.origin },
        body,
      });
    const malformed = await send('{"oops"');
    expect(malformed.status).toBe(400);
    expect(await json(malformed)).toEqual({ message: 'The request body is not valid JSON' });
    const fields = await send('{"userId": 3}');
    expect(fields.status).toBe(400);
    expect((await json(fields)).message).toBe('Unknown field: userId');
    const text = await send('hello', 'text/plain');
    expect(text.status).toBe(415);
    expect(await count('follows')).toBe(before);
    const bare = await vault.request(`/api/users/${ids.carol}/follow`, {
      method: 'POST',
      cookie: bob,
      headers: { origin: vault.config.origin },
    });
    expect(bare.status).toBe(201);
    expect(await count('follows')).toBe(before + 1);
    const undo = await vault.postJson(`/api/users/${ids.carol}/follow`, {}, bob, 'DELETE');
    expect(undo.status).toBe(204);
    const empty = await send('');
    expect(empty.status).toBe(201);
    await vault.postJson(`/api/users/${ids.carol}/follow`, {}, bob, 'DELETE');
  });

  it('lists follows newest first', async () => {
    expect((await follow(ids.carol, alice)).status).toBe(201);
    expect((await followingOf(alice)).map((f) => f.user.username)).toEqual(['carol', 'bob']);
  });

  it('is open to admins as to any user, for themselves only', async () => {
    expect((await follow(ids.bob, admin)).status).toBe(201);
    expect((await followingOf(admin)).map((f) => f.user.username)).toEqual(['bob']);
    expect((await followersOf(bob)).map((f) => f.kind === 'local' && f.user.username)).toEqual([
      'root_admin',
      'alice',
    ]);
    expect(await followingOf(carol)).toEqual([]);
  });

  it('is refused to anonymous requests with 401', async () => {
    const res = await vault.request(`/api/users/${ids.bob}/follow`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect((await get('/api/users/following')).status).toBe(401);
    expect((await get('/api/users/followers')).status).toBe(401);
  });
});

describe('unfollowing a user', () => {
  it('answers 204 and removes the follow from both lists', async () => {
    const res = await unfollow(ids.carol, alice);
    expect(res.status).toBe(204);
    expect((await followingOf(alice)).map((f) => f.user.username)).toEqual(['bob']);
    expect(await followersOf(carol)).toEqual([]);
  });

  it('refuses a user the caller does not follow with 404, changing nothing', async () => {
    const before = await count('follows');
    const res = await unfollow(ids.carol, alice);
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'You are not following carol.' });
    expect(await count('follows')).toBe(before);
    expect((await unfollow(999_999, alice)).status).toBe(404);
  });

  it('only ever removes the caller’s own follow', async () => {
    // Carol does not follow bob; alice's follow of bob stays.
    expect((await unfollow(ids.bob, carol)).status).toBe(404);
    expect((await followingOf(alice)).map((f) => f.user.username)).toEqual(['bob']);
  });

  it('is refused to anonymous requests with 401', async () => {
    const res = await vault.request(`/api/users/${ids.bob}/follow`, { method: 'DELETE' });
    expect(res.status).toBe(401);
  });
});

describe('followers', () => {
  it('shows a remote actor as a federated follower with its name, URI, handle and summary', async () => {
    const db = vault.ctx.database.database;
    const t = Date.now();
    const remote = (await db
      .prepare(
        `INSERT INTO actors (kind, uri, display_name, handle, summary, avatar_url, created_at, updated_at)
         VALUES ('remote', 'https://elsewhere.example/users/rémi', 'Rémi', '@remi@elsewhere.example',
                 'Wine lover', NULL, ?, ?) RETURNING id`,
      )
      .pluck()
      .get(t, t)) as number;
    await db
      .prepare(
        `INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)`,
      )
      .run(remote, await vault.ctx.actors.localActorId(ids.carol), t);
    expect(await followersOf(carol)).toEqual([
      {
        kind: 'federated',
        actorId: Number(remote),
        displayName: 'Rémi',
        actorUri: 'https://elsewhere.example/users/rémi',
        handle: '@remi@elsewhere.example',
        summary: 'Wine lover',
        avatarUrl: null,
        followedAt: new Date(t).toISOString(),
      },
    ]);
  });
});

describe('the /users routes', () => {
  it('keep search, following and followers apart from the admin’s /users/:id routes', async () => {
    // An admin PATCH /users/:id exists: /users/search must still be the search.
    const res = await get('/api/users/search?q=bob', admin);
    expect(res.status).toBe(200);
    expect(searchPage.parse(await json(res)).users.map((u) => u.username)).toEqual(['bob']);
    expect((await get('/api/users/following', admin)).status).toBe(200);
    expect((await get('/api/users/followers', admin)).status).toBe(200);
  });
});
