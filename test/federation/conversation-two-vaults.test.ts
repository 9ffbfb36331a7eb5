import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beverageResponseSchema } from '../../contract/beverages.ts';
import { commentListSchema } from '../../contract/conversation.ts';
import { activityPageSchema, type RemoteActivityItem } from '../../contract/social.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Two real vaults on loopback ports: alice on A follows bob on B; bob's entry reaches her feed,
 * and her cheer and comment on it travel to B (Like, Create of a reply Note, signed by A's
 * Fedify, received by B's), where bob sees them counted, in the thread and as notifications;
 * taking the cheer back and deleting the comment travel too.
 */

let a: TestServer;
let b: TestServer;
let alice: string;
let bob: string;
let bobId: number;
let carol: string;

async function signIn(site: TestServer, username: string) {
  const user = await site.createUser({
    username,
    password: `${username}-password`,
    activityPubEnabled: true,
  });
  const res = await fetch(`${site.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site.url },
    body: JSON.stringify({ username, password: `${username}-password` }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.includes('vault_session='))!
    .split(';')[0]!;
  return { id: user.id, cookie };
}

function api(site: TestServer, path: string, cookie: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('cookie', cookie);
  headers.set('origin', site.url);
  return fetch(`${site.url}/api${path}`, { ...init, headers });
}

const send = (site: TestServer, method: string, path: string, cookie: string, body?: unknown) =>
  api(site, path, cookie, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  alice = (await signIn(a, 'alice')).cookie;
  const signedIn = await signIn(b, 'bob');
  bob = signedIn.cookie;
  bobId = signedIn.id;
  // carol, on bob's vault, follows him: she sees his followers-only entries and their threads.
  carol = (await signIn(b, 'carol')).cookie;
  expect((await send(b, 'POST', `/users/${bobId}/follow`, carol)).status).toBeLessThan(300);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('a cheer and a comment travelling from one vault to another', () => {
  it('reach the author’s vault, and their withdrawal too', async () => {
    const actorUri = `${b.url}/users/bob`;
    expect((await send(a, 'POST', '/users/lookup', alice, { query: actorUri })).status).toBe(200);
    expect((await send(a, 'POST', '/users/remote-follows', alice, { actorUri })).status).toBe(201);
    await until(
      async () => JSON.stringify(await (await api(a, '/users/following', alice)).json()),
      (text) => text.includes('"ACCEPTED"'),
    );
    // B has alice as an accepted follower of bob (the entry's audience).
    await until(
      async () => JSON.stringify(await (await api(b, '/users/followers', bob)).json()),
      (text) => text.includes(`${a.url}/users/alice`),
    );

    const form = new FormData();
    form.append('name', 'Kilkerran 12');
    form.append('type', 'WHISKEY');
    form.append('visibility', 'FOLLOWERS');
    const created = await api(b, '/beverages', bob, { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const entryId = beverageResponseSchema.parse(await created.json()).beverage.id;
    const remote = async () =>
      activityPageSchema
        .parse(await (await api(a, '/activity', alice)).json())
        .activities.filter((item): item is RemoteActivityItem => item.kind === 'remote');
    const [item] = await until(remote, (list) => list.length > 0);
    const path = `/activity/remote-entries/${item!.beverage.id}`;

    expect((await send(a, 'POST', `${path}/cheer`, alice)).status).toBe(200);
    const posted = await send(a, 'POST', `${path}/comments`, alice, {
      content: 'Smoky! https://x.example/y',
    });
    expect(posted.status).toBe(201);
    const commentId = ((await posted.json()) as { comment: { id: number } }).comment.id;

    const entryOnB = async () =>
      beverageResponseSchema.parse(await (await api(b, `/beverages/${entryId}`, bob)).json())
        .beverage;
    const thread = async () =>
      commentListSchema.parse(await (await api(b, `/beverages/${entryId}/comments`, bob)).json())
        .comments;
    expect(await until(entryOnB, (e) => e.cheerCount === 1 && e.commentCount === 1)).toMatchObject({
      cheerCount: 1,
      commentCount: 1,
    });
    // A comment on the entry is read by whoever may see it on bob's vault, carol too: not kept
    // to bob alone as a private reply.
    const carolSees = commentListSchema.parse(
      await (await api(b, `/beverages/${entryId}/comments`, carol)).json(),
    ).comments;
    expect(carolSees.map((c) => [c.content, c.audience])).toEqual([
      ['Smoky! https://x.example/y', 'PUBLIC'],
    ]);
    expect(await thread()).toEqual([
      expect.objectContaining({
        content: 'Smoky! https://x.example/y',
        author: expect.objectContaining({
          username: null,
          handle: expect.stringContaining('alice'),
        }),
      }),
    ]);
    const kinds = () =>
      b.ctx.database.database
        .prepare(
          `SELECT type FROM notifications WHERE recipient_id = ? AND type IN ('CHEER', 'COMMENT')
           ORDER BY type`,
        )
        .pluck()
        .all(bobId);
    expect(
      await until(
        async () => kinds(),
        (list) => list.length === 2,
      ),
    ).toEqual(['CHEER', 'COMMENT']);

    expect((await send(a, 'DELETE', `${path}/cheer`, alice)).status).toBe(200);
    expect((await send(a, 'DELETE', `${path}/comments/${commentId}`, alice)).status).toBe(204);
    expect(await until(entryOnB, (e) => e.cheerCount === 0 && e.commentCount === 0)).toMatchObject({
      cheerCount: 0,
      commentCount: 0,
    });
    expect(await kinds()).toEqual([]);
  }, 60_000);
});
