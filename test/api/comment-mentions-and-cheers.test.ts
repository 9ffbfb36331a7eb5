import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  commentCheerResponseSchema,
  commentListSchema,
  commentResponseSchema,
  type Comment,
} from '../../contract/conversation.ts';
import { notificationListSchema } from '../../contract/social.ts';
import type { IncomingEntry } from '../../src/remote-entries/service.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Mentions in comments and cheers of comments (docs/social.md, "Threads"): `@name` and
 * `@name@host` of known accounts become addressed mentions with a MENTION for a local user who
 * may see the entry; a cheer of a comment tells its author (COMMENT_CHEER) and goes with its
 * notification; both on the vault's own entries and on a remote vault's.
 */
type Person = 'olive' | 'mia' | 'fern' | 'sam';
const ACTOR = 'https://other-vault.example/users/zed';
let vault: TestVault;
const cookies = {} as Record<Person, string>;
const ids = {} as Record<Person, number>;
let zed: number;

beforeAll(async () => {
  vault = createTestVault();
  for (const username of ['olive', 'mia', 'fern', 'sam'] as const) {
    const user = await vault.createUser({ username });
    ids[username] = user.id;
    cookies[username] = await vault.login(username, user.password);
  }
  const t = Date.now();
  const db = vault.ctx.database.database;
  zed = (await db
    .prepare(
      `INSERT INTO actors (kind, uri, inbox_url, display_name, handle, created_at, updated_at)
       VALUES ('remote', ?, ?, 'Zed', '@zed@other-vault.example', ?, ?) RETURNING id`,
    )
    .pluck<number>()
    .get(ACTOR, `${ACTOR}/inbox`, t, t))!;
  // Fern follows Olive (her FOLLOWERS entries); Fern and Mia follow Zed (his entries reach
  // their feeds).
  const follow = await vault.postJson(`/api/users/${ids.olive}/follow`, {}, cookies.fern);
  expect(follow.status).toBe(201);
  await db
    .prepare(
      "INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)",
    )
    .run(await vault.ctx.actors.localActorId(ids.fern), zed, t);
  await db
    .prepare(
      "INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)",
    )
    .run(await vault.ctx.actors.localActorId(ids.mia), zed, t);
  await vault.ctx.outbox.idle();
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec(
    'DELETE FROM beverages; DELETE FROM remote_entries; DELETE FROM notifications;',
  );
});

const entry = async (visibility = 'MEMBERS') =>
  (await vault.logEntry(cookies.olive, { name: 'Ardbeg 10', type: 'WHISKEY', visibility })).id;
const local = (id: number) => `/api/beverages/${id}`;

async function write(base: string, who: Person, content: string, inReplyTo?: number) {
  const res = await vault.postJson(`${base}/comments`, { content, inReplyTo }, cookies[who]);
  expect(res.status, await res.clone().text()).toBe(201);
  return commentResponseSchema.parse(await json(res)).comment;
}
async function thread(base: string, who: Person): Promise<Comment[]> {
  const res = await vault.request(`${base}/comments`, { cookie: cookies[who] });
  expect(res.status).toBe(200);
  return commentListSchema.parse(await json(res)).comments;
}
async function alerts(who: Person) {
  await vault.ctx.outbox.idle();
  const res = await vault.request('/api/notifications', { cookie: cookies[who] });
  return notificationListSchema
    .parse(await json(res))
    .notifications.map((n) => [n.type, n.sender.username, n.payload.message]);
}
const cheer = (base: string, commentId: number, who: Person, method = 'POST') =>
  vault.request(`${base}/comments/${commentId}/cheer`, { method, cookie: cookies[who] });
async function cheered(base: string, commentId: number, who: Person, method = 'POST') {
  const res = await cheer(base, commentId, who, method);
  expect(res.status).toBe(200);
  return commentCheerResponseSchema.strict().parse(await json(res));
}
const addressees = (commentId: number) =>
  vault.ctx.database.database
    .prepare('SELECT actor_id, mentioned FROM comment_addressees WHERE comment_id = ?')
    .all(commentId);

describe('mentions', () => {
  it('@name of a local user and @name@host of a known account become mentions; unknown names stay text', async () => {
    const id = await entry();
    const text = 'Ask @fern, @nobody, @zed@other-vault.example and @who@unknown.example.';
    const written = await write(local(id), 'mia', text);
    expect(written.content).toBe(text);
    expect(written.mentions).toEqual([
      { text: '@fern', username: 'fern', handle: null },
      { text: '@zed@other-vault.example', username: null, handle: '@zed@other-vault.example' },
    ]);
    expect((await thread(local(id), 'sam'))[0]!.mentions).toEqual(written.mentions);
    expect(await addressees(written.id)).toEqual(
      expect.arrayContaining([
        { actor_id: await vault.ctx.actors.localActorId(ids.fern), mentioned: 1 },
        { actor_id: zed, mentioned: 1 },
      ]),
    );
    expect(await alerts('fern')).toEqual([['MENTION', 'mia', text]]);
    expect(await alerts('olive')).toEqual([['COMMENT', 'mia', text]]);
  });

  it('@name@host with this vault’s own host names the local user', async () => {
    const id = await entry();
    const host = new URL(vault.origin).host;
    const written = await write(local(id), 'mia', `Hello @SAM@${host}!`);
    expect(written.mentions).toEqual([{ text: `@SAM@${host}`, username: 'sam', handle: null }]);
    expect(await alerts('sam')).toEqual([['MENTION', 'mia', `Hello @SAM@${host}!`]]);
  });

  it('a mentioned user who may not see the entry is told nothing and reads nothing', async () => {
    const id = await entry('FOLLOWERS');
    await write(local(id), 'fern', 'What would @mia say?');
    expect(await alerts('mia')).toEqual([]);
    const res = await vault.request(`${local(id)}/comments`, { cookie: cookies.mia });
    expect(res.status).toBe(404);
  });

  it('the owner mentioned is told once: of a comment, of an answer to their own comment', async () => {
    const id = await entry();
    await write(local(id), 'sam', '@olive where from?');
    const own = await write(local(id), 'olive', 'Try it with water.');
    await write(local(id), 'mia', '@olive how much?', own.id);
    expect(await alerts('olive')).toEqual([
      ['REPLY', 'mia', '@olive how much?'],
      ['COMMENT', 'sam', '@olive where from?'],
    ]);
  });
});

describe('cheers of comments', () => {
  it('count once per person, tell the comment’s author, and go with their notification', async () => {
    const id = await entry();
    const words = await write(local(id), 'fern', 'Iodine and tar.');
    expect(await cheered(local(id), words.id, 'mia')).toEqual({ cheerCount: 1, cheeredByMe: true });
    expect(await cheered(local(id), words.id, 'mia')).toEqual({ cheerCount: 1, cheeredByMe: true });
    expect(await cheered(local(id), words.id, 'olive')).toEqual({
      cheerCount: 2,
      cheeredByMe: true,
    });
    expect(await cheered(local(id), words.id, 'fern')).toEqual({
      cheerCount: 3,
      cheeredByMe: true,
    });
    const inThread = (await thread(local(id), 'sam'))[0]!;
    expect([inThread.cheerCount, inThread.cheeredByMe]).toEqual([3, false]);
    expect(await alerts('fern')).toEqual([
      ['COMMENT_CHEER', 'olive', 'Iodine and tar.'],
      ['COMMENT_CHEER', 'mia', 'Iodine and tar.'],
    ]);
    // The owner is told of the comment, not of cheers of someone else's comment.
    expect(await alerts('olive')).toEqual([['COMMENT', 'fern', 'Iodine and tar.']]);
    expect(await cheered(local(id), words.id, 'mia', 'DELETE')).toEqual({
      cheerCount: 2,
      cheeredByMe: false,
    });
    expect(await cheered(local(id), words.id, 'sam', 'DELETE')).toEqual({
      cheerCount: 2,
      cheeredByMe: false,
    });
    expect(await alerts('fern')).toEqual([['COMMENT_CHEER', 'olive', 'Iodine and tar.']]);
  });

  it('a cheer across a block is not counted for the other side, and counts again once lifted', async () => {
    const id = await entry();
    const words = await write(local(id), 'fern', 'Brine.');
    await cheered(local(id), words.id, 'mia');
    await cheered(local(id), words.id, 'olive');
    const block = await vault.postJson('/api/users/blocks', { username: 'mia' }, cookies.sam);
    expect(block.status).toBe(201);
    const blockId = ((await json(block)) as { block: { id: number } }).block.id;
    const countFor = async (who: Person) => (await thread(local(id), who))[0]!.cheerCount;
    expect([await countFor('sam'), await countFor('fern')]).toEqual([1, 2]);
    expect(await cheered(local(id), words.id, 'sam')).toEqual({ cheerCount: 2, cheeredByMe: true });
    const lift = await vault.request(`/api/users/blocks/${blockId}`, {
      method: 'DELETE',
      cookie: cookies.sam,
    });
    expect(lift.status).toBe(204);
    expect(await countFor('sam')).toBe(3);
  });

  it('record LikeComment and UndoLikeComment for federation, in the same transaction', async () => {
    const id = await entry();
    const words = await write(local(id), 'fern', 'Smoke.');
    await vault.ctx.outbox.idle();
    const db = vault.ctx.database.database;
    await db.exec('DELETE FROM activities');
    await cheered(local(id), words.id, 'mia');
    await cheered(local(id), words.id, 'mia', 'DELETE');
    const recorded = await db
      .prepare<{ type: string; beverage_id: number; payload: string }>(
        'SELECT type, beverage_id, payload FROM activities ORDER BY id',
      )
      .all();
    const cheerId = JSON.parse(recorded[0]!.payload).commentCheerId as number;
    expect(recorded.map((a) => [a.type, a.beverage_id, JSON.parse(a.payload)])).toEqual([
      ['LikeComment', id, { commentCheerId: cheerId, commentId: words.id }],
      ['UndoLikeComment', id, { commentCheerId: cheerId, commentId: words.id }],
    ]);
  });

  it('404 for a comment unknown, unread or deleted, and for an entry the caller cannot see', async () => {
    const id = await entry();
    const top = await write(local(id), 'mia', 'Top');
    const secret = await vault.postJson(
      `${local(id)}/comments`,
      { content: 'Psst', inReplyTo: top.id, private: true },
      cookies.fern,
    );
    const secretId = commentResponseSchema.parse(await json(secret)).comment.id;
    expect(
      (
        await vault.request(`${local(id)}/comments/${top.id}`, {
          method: 'DELETE',
          cookie: cookies.mia,
        })
      ).status,
    ).toBe(204);
    const hidden = await entry('PRIVATE');
    const hiddenComment = await write(local(hidden), 'olive', 'Mine alone');
    const refusals: [string, number, Person, string][] = [
      [local(id), 999_999, 'sam', 'Comment not found'],
      [local(id), secretId, 'sam', 'Comment not found'],
      [local(id), top.id, 'sam', 'Comment not found'],
      [local(hidden), hiddenComment.id, 'sam', 'Beverage not found'],
    ];
    for (const [base, commentId, who, message] of refusals) {
      for (const method of ['POST', 'DELETE']) {
        const res = await cheer(base, commentId, who, method);
        expect([res.status, await json(res)]).toEqual([404, { message }]);
      }
    }
    const count = vault.ctx.database.database.prepare('SELECT count(*) FROM comment_cheers');
    expect(await count.pluck().get()).toBe(0);
  });
});

describe('on a remote vault’s entry', () => {
  async function received(): Promise<string> {
    const noteUri = `${ACTOR}/entries/${Date.now()}`;
    const incoming: IncomingEntry = {
      noteUri,
      type: 'BEER',
      name: 'Orval',
      subtype: 'Belgian Ale',
      makerName: 'Orval',
      rating: 5,
      notes: '',
      status: 'TRIED',
      publishedAt: new Date('2026-02-01T10:00:00Z'),
      updatedAt: new Date('2026-02-01T10:00:00Z'),
      photoUrl: null,
    };
    expect(await vault.ctx.remoteEntries.store(zed, incoming, undefined)).toBe('stored');
    await vault.ctx.outbox.idle();
    return `/api/activity/remote-entries/${(await vault.ctx.remoteEntries.find(noteUri))!.id}`;
  }

  it('answers, mentions and cheers of comments work the same for those whose feed holds it', async () => {
    const base = await received();
    const first = await write(base, 'fern', 'Cloudy?');
    const answer = await write(base, 'mia', 'Yes, @fern.', first.id);
    expect(answer.parentId).toBe(first.id);
    expect(await cheered(base, answer.id, 'fern')).toEqual({ cheerCount: 1, cheeredByMe: true });
    expect(await alerts('fern')).toEqual([['REPLY', 'mia', 'Yes, @fern.']]);
    expect(await alerts('mia')).toEqual([['COMMENT_CHEER', 'fern', 'Yes, @fern.']]);
    // Sam does not follow Zed: the entry and its conversation are not his.
    expect((await cheer(base, answer.id, 'sam')).status).toBe(404);
  });
});
