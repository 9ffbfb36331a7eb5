import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { beverageResponseSchema } from '../../contract/beverages.ts';
import {
  commentListSchema,
  commentResponseSchema,
  type Comment,
} from '../../contract/conversation.ts';
import { notificationListSchema } from '../../contract/social.ts';
import { createConversationRepository } from '../../src/conversation/repository.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Threads (docs/social.md, "Threads"): answers at any depth in tree order, private answers,
 * the nearest readable ancestor, deleted comments kept for their answers, the REPLY
 * notifications, and the refusals of POST …/comments.
 */
type Person = 'olive' | 'mia' | 'fern' | 'sam' | 'root';
let vault: TestVault;
const cookies = {} as Record<Person, string>;

beforeAll(async () => {
  vault = createTestVault();
  for (const username of ['olive', 'mia', 'fern', 'sam', 'root'] as const) {
    const role = username === 'root' ? 'ADMIN' : 'USER';
    const user = await vault.createUser({ username, role });
    cookies[username] = await vault.login(username, user.password);
  }
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec('DELETE FROM beverages; DELETE FROM notifications;');
});

const db = () => vault.ctx.database.database;
const entry = async (name = 'Springbank 10') =>
  (await vault.logEntry(cookies.olive, { name, type: 'WHISKEY', visibility: 'MEMBERS' })).id;
const post = (id: number, who: Person, body: Record<string, unknown>) =>
  vault.postJson(`/api/beverages/${id}/comments`, body, cookies[who]);

/** `who` writes `content`, answering `inReplyTo` when given; the new comment. */
async function write(
  id: number,
  who: Person,
  content: string,
  reply: { inReplyTo?: number; private?: boolean } = {},
): Promise<Comment> {
  const res = await post(id, who, { content, ...reply });
  expect(res.status, await res.clone().text()).toBe(201);
  return commentResponseSchema.parse(await json(res)).comment;
}

async function thread(id: number, who: Person): Promise<Comment[]> {
  const res = await vault.request(`/api/beverages/${id}/comments`, { cookie: cookies[who] });
  expect(res.status).toBe(200);
  return commentListSchema.parse(await json(res)).comments;
}
/** The thread as [content, parent's content] pairs. */
async function shape(id: number, who: Person) {
  const comments = await thread(id, who);
  const byId = new Map(comments.map((c) => [c.id, c.content]));
  return comments.map((c) => [c.content, c.parentId === null ? null : byId.get(c.parentId)]);
}
async function countFor(id: number, who: Person) {
  const res = await vault.request(`/api/beverages/${id}`, { cookie: cookies[who] });
  return beverageResponseSchema.parse(await json(res)).beverage.commentCount;
}
async function alerts(who: Person) {
  await vault.ctx.outbox.idle();
  const res = await vault.request('/api/notifications', { cookie: cookies[who] });
  return notificationListSchema
    .parse(await json(res))
    .notifications.map((n) => [n.type, n.sender.username, n.payload.message]);
}
const remove = (id: number, commentId: number, who: Person) =>
  vault.request(`/api/beverages/${id}/comments/${commentId}`, {
    method: 'DELETE',
    cookie: cookies[who],
  });
const rows = async () =>
  (await db().prepare('SELECT count(*) FROM comments').pluck<number>().get())!;

describe('answers at any depth', () => {
  it('come after their parent, depth first, siblings oldest first, three levels deep', async () => {
    const id = await entry();
    const first = await write(id, 'mia', 'Peaty?');
    const answer = await write(id, 'fern', 'Very.', { inReplyTo: first.id });
    expect(answer).toMatchObject({ parentId: first.id, audience: 'PUBLIC' });
    const deeper = await write(id, 'mia', 'How very?', { inReplyTo: answer.id });
    await write(id, 'sam', 'Another topic.');
    await write(id, 'olive', 'Mildly.', { inReplyTo: first.id });
    await write(id, 'fern', 'Like a bonfire.', { inReplyTo: deeper.id });
    expect(await shape(id, 'sam')).toEqual([
      ['Peaty?', null],
      ['Very.', 'Peaty?'],
      ['How very?', 'Very.'],
      ['Like a bonfire.', 'How very?'],
      ['Mildly.', 'Peaty?'],
      ['Another topic.', null],
    ]);
    expect(await countFor(id, 'sam')).toBe(6);
  });

  it('an answer stamped before or with the same second as its parent still comes after it', async () => {
    const id = await entry();
    const parent = await write(id, 'mia', 'Parent');
    const earlier = await write(id, 'fern', 'Answer stamped earlier', { inReplyTo: parent.id });
    const same = await write(id, 'sam', 'Answer stamped the same', { inReplyTo: parent.id });
    const at = db().prepare('SELECT created_at FROM comments WHERE id = ?').pluck<number>();
    const stamp = (await at.get(parent.id))!;
    // Mastodon's `published` has whole seconds: a reply may read as older than its parent.
    const set = db().prepare('UPDATE comments SET created_at = ? WHERE id = ?');
    await set.run(stamp - 500, earlier.id);
    await set.run(stamp, same.id);
    expect(await shape(id, 'olive')).toEqual([
      ['Parent', null],
      ['Answer stamped earlier', 'Parent'],
      ['Answer stamped the same', 'Parent'],
    ]);
  });

  it('the author of the answered comment is told (REPLY), the owner once, nobody of their own words', async () => {
    const id = await entry('Kilkerran 12');
    const first = await write(id, 'mia', 'Salty?');
    const answer = await write(id, 'fern', 'Very salty.', { inReplyTo: first.id });
    await write(id, 'mia', 'Thanks!', { inReplyTo: answer.id });
    const own = await write(id, 'olive', 'My answer.', { inReplyTo: first.id });
    await write(id, 'mia', 'Yours too.', { inReplyTo: own.id });
    await write(id, 'fern', 'Talking to myself.', { inReplyTo: answer.id });
    expect(await alerts('mia')).toEqual([
      ['REPLY', 'olive', 'My answer.'],
      ['REPLY', 'fern', 'Very salty.'],
    ]);
    expect(await alerts('fern')).toEqual([['REPLY', 'mia', 'Thanks!']]);
    expect(await alerts('olive')).toEqual([
      ['COMMENT', 'fern', 'Talking to myself.'],
      ['REPLY', 'mia', 'Yours too.'],
      ['COMMENT', 'mia', 'Thanks!'],
      ['COMMENT', 'fern', 'Very salty.'],
      ['COMMENT', 'mia', 'Salty?'],
    ]);
  });
});

describe('a private answer', () => {
  it('is read by its author and the answered author alone, counted and told only to them', async () => {
    const id = await entry();
    const first = await write(id, 'mia', 'Worth the price?');
    const secret = await write(id, 'fern', 'Between us: no.', {
      inReplyTo: first.id,
      private: true,
    });
    expect(secret).toMatchObject({ audience: 'DIRECT', parentId: first.id });
    for (const who of ['fern', 'mia'] as const) {
      expect(await shape(id, who)).toEqual([
        ['Worth the price?', null],
        ['Between us: no.', 'Worth the price?'],
      ]);
      expect(await countFor(id, who)).toBe(2);
    }
    // The owner, another member and an admin read neither it nor its count.
    for (const who of ['olive', 'sam', 'root'] as const) {
      expect(await shape(id, who)).toEqual([['Worth the price?', null]]);
      expect(await countFor(id, who)).toBe(1);
    }
    expect(await alerts('mia')).toEqual([['REPLY', 'fern', 'Between us: no.']]);
    expect(await alerts('olive')).toEqual([['COMMENT', 'mia', 'Worth the price?']]);
    // Answering it keeps it between them: the answer to a private one is private too.
    const back = await write(id, 'mia', 'Agreed.', { inReplyTo: secret.id });
    expect(back.audience).toBe('DIRECT');
    expect(await shape(id, 'sam')).toEqual([['Worth the price?', null]]);
    expect(await alerts('fern')).toEqual([['REPLY', 'mia', 'Agreed.']]);
  });

  it('an answer the viewer reads under a comment they do not hangs under the nearest one they do', async () => {
    const id = await entry();
    const first = await write(id, 'mia', 'Top');
    const secret = await write(id, 'fern', 'Hidden', { inReplyTo: first.id, private: true });
    const open = await write(id, 'mia', 'Open answer', { inReplyTo: secret.id });
    // As a remote server may address it: to everyone who sees the entry.
    await db().prepare("UPDATE comments SET audience = 'PUBLIC' WHERE id = ?").run(open.id);
    const deeper = await write(id, 'fern', 'Hidden again', { inReplyTo: open.id, private: true });
    const openDeeper = await write(id, 'mia', 'Open again', { inReplyTo: deeper.id });
    await db().prepare("UPDATE comments SET audience = 'PUBLIC' WHERE id = ?").run(openDeeper.id);
    expect(await shape(id, 'sam')).toEqual([
      ['Top', null],
      ['Open answer', 'Top'],
      ['Open again', 'Open answer'],
    ]);
    expect(await shape(id, 'fern')).toEqual([
      ['Top', null],
      ['Hidden', 'Top'],
      ['Open answer', 'Hidden'],
      ['Hidden again', 'Open answer'],
      ['Open again', 'Hidden again'],
    ]);
  });
});

describe('refused answers change nothing', () => {
  it('400 for private without inReplyTo; 404 for a comment unknown, elsewhere, unread or deleted', async () => {
    const id = await entry();
    const elsewhere = await write(await entry('Another'), 'mia', 'Elsewhere');
    const first = await write(id, 'mia', 'Top');
    const secret = await write(id, 'fern', 'Hidden', { inReplyTo: first.id, private: true });
    const gone = await write(id, 'mia', 'Soon deleted');
    await write(id, 'fern', 'Keeps it', { inReplyTo: gone.id });
    expect((await remove(id, gone.id, 'mia')).status).toBe(204);
    const before = await rows();
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ content: 'Hi', private: true }, 400, 'A private reply answers a comment'],
      [{ content: 'Hi', inReplyTo: 999_999 }, 404, 'Comment not found'],
      [{ content: 'Hi', inReplyTo: elsewhere.id }, 404, 'Comment not found'],
      [{ content: 'Hi', inReplyTo: secret.id }, 404, 'Comment not found'],
      [{ content: 'Hi', inReplyTo: gone.id }, 404, 'Comment not found'],
      [{ content: 'Hi', inReplyTo: 'one' }, 400, 'inReplyTo must be a comment id'],
    ];
    for (const [body, status, message] of refusals) {
      const res = await post(id, 'sam', body);
      expect([res.status, await json(res)]).toEqual([status, { message }]);
    }
    expect(await rows()).toBe(before);
  });
});

describe('deleting a comment that has answers', () => {
  it('keeps it as a deleted comment for its answers, uncounted, and removes it with its last answer', async () => {
    const id = await entry();
    const top = await write(id, 'mia', 'Top');
    const middle = await write(id, 'fern', 'Middle', { inReplyTo: top.id });
    const bottom = await write(id, 'sam', 'Bottom', { inReplyTo: middle.id });
    expect((await remove(id, middle.id, 'fern')).status).toBe(204);
    expect((await remove(id, top.id, 'olive')).status).toBe(204);
    const comments = await thread(id, 'mia');
    expect(comments.map((c) => [c.id, c.parentId, c.deleted])).toEqual([
      [top.id, null, true],
      [middle.id, top.id, true],
      [bottom.id, middle.id, false],
    ]);
    expect(comments[0]).toMatchObject({
      content: '',
      author: { fullName: '', username: null, handle: null, avatarUrl: null },
      canDelete: false,
      mentions: [],
      cheerCount: 0,
    });
    expect(await countFor(id, 'mia')).toBe(1);
    // The owner's COMMENT of the deleted ones is gone; the answer's stays.
    expect(await alerts('olive')).toEqual([['COMMENT', 'sam', 'Bottom']]);
    // A deleted comment is not deleted again, nor answered.
    expect((await remove(id, middle.id, 'fern')).status).toBe(404);
    expect(await rows()).toBe(3);
    expect((await remove(id, bottom.id, 'sam')).status).toBe(204);
    expect(await thread(id, 'mia')).toEqual([]);
    expect(await rows()).toBe(0);
  });

  it('a deleted comment whose answers the viewer cannot read is not shown to them', async () => {
    const id = await entry();
    const top = await write(id, 'mia', 'Top');
    await write(id, 'fern', 'Hidden', { inReplyTo: top.id, private: true });
    expect((await remove(id, top.id, 'mia')).status).toBe(204);
    expect(await thread(id, 'sam')).toEqual([]);
    expect(await countFor(id, 'sam')).toBe(0);
    expect((await shape(id, 'fern')).map(([content]) => content)).toEqual(['', 'Hidden']);
  });

  it('a block received removes the blocker’s comments but keeps those others answered as deleted', async () => {
    const id = await entry();
    const answered = await write(id, 'mia', 'Answered');
    await write(id, 'fern', 'An answer', { inReplyTo: answered.id });
    const own = await write(id, 'mia', 'Alone');
    await write(id, 'mia', 'Her own answer', { inReplyTo: own.id });
    const cheer = await vault.request(`/api/beverages/${id}/comments/${answered.id}/cheer`, {
      method: 'POST',
      cookie: cookies.sam,
    });
    expect(cheer.status).toBe(200);
    const mia = await vault.ctx.actors.localActorId(
      (await vault.ctx.users.findByUsername('mia'))!.id,
    );
    const olive = (await vault.ctx.users.findByUsername('olive'))!.id;
    // What src/blocks/received.ts asks of the conversation when mia's account blocks olive.
    const removed = await createConversationRepository(
      vault.ctx.database.database,
    ).removeActorOnEntriesOf(mia, olive);
    expect(removed).toBe(3);
    expect(await shape(id, 'sam')).toEqual([
      ['', null],
      ['An answer', ''],
    ]);
    expect(await rows()).toBe(2);
  });

  it('a comment without answers is removed at once', async () => {
    const id = await entry();
    const lone = await write(id, 'mia', 'Alone');
    expect((await remove(id, lone.id, 'mia')).status).toBe(204);
    expect(await rows()).toBe(0);
  });
});
