import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { beveragePageSchema, beverageResponseSchema } from '../../contract/beverages.ts';
import {
  cheerResponseSchema,
  commentListSchema,
  commentResponseSchema,
} from '../../contract/conversation.ts';
import { activityPageSchema } from '../../contract/social.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Cheers and comments on the vault's own entries through the API: who may cheer, comment, read
 * and delete (the one visibility policy decides who sees the entry), the errors, and the counts
 * in the entry's JSON as each viewer gets them.
 */
type Person = 'olive' | 'fern' | 'mia' | 'sam' | 'root';
let vault: TestVault;
const cookies = {} as Record<Person, string>;
const ids = {} as Record<Person, number>;

beforeAll(async () => {
  vault = createTestVault();
  const people: [Person, string][] = [
    ['olive', 'Olive Owner'],
    ['fern', 'Fern Follower'],
    ['mia', 'Mia Member'],
    ['sam', 'Sam Shared'],
    ['root', 'Root Admin'],
  ];
  for (const [username, fullName] of people) {
    const role = username === 'root' ? 'ADMIN' : 'USER';
    const user = await vault.createUser({ username, fullName, role });
    ids[username] = user.id;
    cookies[username] = await vault.login(username, user.password);
  }
  const res = await vault.postJson(`/api/users/${ids.olive}/follow`, {}, cookies.fern);
  expect(res.status).toBeLessThan(300);
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec('DELETE FROM beverages; DELETE FROM notifications;');
});

/** Olive logs an entry with that visibility. */
async function entry(visibility = 'MEMBERS', name = 'Springbank 10'): Promise<number> {
  return (await vault.logEntry(cookies.olive, { name, type: 'WHISKEY', visibility })).id;
}

const cheer = (id: number, who: Person, method = 'POST') =>
  vault.request(`/api/beverages/${id}/cheer`, { method, cookie: cookies[who] });
const comment = (id: number, who: Person, content: unknown) =>
  vault.postJson(`/api/beverages/${id}/comments`, { content }, cookies[who]);
const comments = (id: number, who: Person) =>
  vault.request(`/api/beverages/${id}/comments`, { cookie: cookies[who] });
const deleteComment = (id: number, commentId: number, who: Person) =>
  vault.request(`/api/beverages/${id}/comments/${commentId}`, {
    method: 'DELETE',
    cookie: cookies[who],
  });

async function commentId(id: number, who: Person, content: string): Promise<number> {
  const res = await comment(id, who, content);
  expect(res.status).toBe(201);
  return commentResponseSchema.parse(await json(res)).comment.id;
}

async function view(id: number, who: Person) {
  const res = await vault.request(`/api/beverages/${id}`, { cookie: cookies[who] });
  expect(res.status).toBe(200);
  return beverageResponseSchema.parse(await json(res)).beverage;
}

async function listOf(who: Person, userId = ids.olive) {
  const res = await vault.request(`/api/beverages?userId=${userId}`, { cookie: cookies[who] });
  expect(res.status).toBe(200);
  return beveragePageSchema.strict().parse(await json(res)).beverages;
}

/** Every conversation route of the entry answers `who` with that status and message. */
async function everyRouteAnswers(id: number, who: Person, status: number, message?: string) {
  const answers = [
    await cheer(id, who),
    await cheer(id, who, 'DELETE'),
    await comments(id, who),
    await comment(id, who, 'Lovely'),
    await deleteComment(id, 999_999, who),
  ];
  for (const res of answers) {
    expect(res.status).toBe(status);
    if (message) expect(await json(res)).toEqual({ message });
  }
}

const rows = async (table: string) =>
  (await vault.ctx.database.database
    .prepare(`SELECT count(*) FROM ${table}`)
    .pluck<number>()
    .get())!;

describe('cheers', () => {
  it('a user who may see an entry cheers it once: cheering again changes nothing', async () => {
    const id = await entry();
    const first = await cheer(id, 'mia');
    expect(first.status).toBe(200);
    expect(cheerResponseSchema.strict().parse(await json(first))).toEqual({
      cheerCount: 1,
      cheeredByMe: true,
      commentCount: 0,
    });
    const again = await cheer(id, 'mia');
    expect(await json(again)).toEqual({ cheerCount: 1, cheeredByMe: true, commentCount: 0 });
    expect(await json(await cheer(id, 'fern'))).toEqual({
      cheerCount: 2,
      cheeredByMe: true,
      commentCount: 0,
    });
    expect(await rows('cheers')).toBe(2);
  });

  it('taking a cheer back lowers the count, and taking back none changes nothing', async () => {
    const id = await entry();
    await cheer(id, 'mia');
    await cheer(id, 'fern');
    const back = await cheer(id, 'mia', 'DELETE');
    expect(back.status).toBe(200);
    expect(await json(back)).toEqual({ cheerCount: 1, cheeredByMe: false, commentCount: 0 });
    expect(await json(await cheer(id, 'mia', 'DELETE'))).toEqual({
      cheerCount: 1,
      cheeredByMe: false,
      commentCount: 0,
    });
    expect(await json(await cheer(id, 'sam', 'DELETE'))).toEqual({
      cheerCount: 1,
      cheeredByMe: false,
      commentCount: 0,
    });
  });
});

describe('the counts in the entry JSON', () => {
  it('GET of an entry says how many cheered and commented, and whether the viewer cheered', async () => {
    const id = await entry();
    expect(await view(id, 'mia')).toMatchObject({
      cheerCount: 0,
      cheeredByMe: false,
      commentCount: 0,
    });
    await cheer(id, 'mia');
    await commentId(id, 'fern', 'Peat and pears.');
    await commentId(id, 'mia', 'Agreed.');
    expect(await view(id, 'mia')).toMatchObject({
      cheerCount: 1,
      cheeredByMe: true,
      commentCount: 2,
    });
    expect(await view(id, 'olive')).toMatchObject({
      cheerCount: 1,
      cheeredByMe: false,
      commentCount: 2,
    });
  });

  it('a list page carries each entry’s counts, cheeredByMe for the viewer alone, and a cheer after the page was read shows on the next read', async () => {
    const quiet = await entry('MEMBERS', 'Quiet one');
    const loud = await entry('MEMBERS', 'Loud one');
    const counts = (list: { id: number; cheerCount: number; cheeredByMe: boolean }[]) =>
      Object.fromEntries(list.map((e) => [e.id, [e.cheerCount, e.cheeredByMe]]));
    // Read first, so that the entries' JSON is cached before anyone cheers.
    expect(counts(await listOf('mia'))).toEqual({ [quiet]: [0, false], [loud]: [0, false] });
    await cheer(loud, 'mia');
    await cheer(loud, 'fern');
    await commentId(loud, 'fern', 'Bold.');
    expect(counts(await listOf('mia'))).toEqual({ [quiet]: [0, false], [loud]: [2, true] });
    expect(counts(await listOf('sam'))).toEqual({ [quiet]: [0, false], [loud]: [2, false] });
    const own = await listOf('olive', ids.olive);
    expect(own.find((e) => e.id === loud)).toMatchObject({ cheerCount: 2, commentCount: 1 });
    await cheer(loud, 'mia', 'DELETE');
    expect(counts(await listOf('mia'))).toEqual({ [quiet]: [0, false], [loud]: [1, false] });
  });

  it('an entry shared with the viewer and added to their vault carries its counts in their list', async () => {
    const id = await entry('PRIVATE', 'Shared dram');
    const share = await vault.postJson(
      `/api/beverages/${id}/share`,
      { userId: ids.sam },
      cookies.olive,
    );
    expect(share.status).toBe(200);
    await vault.ctx.outbox.idle();
    await cheer(id, 'sam');
    const shareId = (await vault.ctx.database.database
      .prepare('SELECT id FROM shares WHERE beverage_id = ?')
      .pluck<number>()
      .get(id))!;
    await vault.ctx.shares.accept({ id: ids.sam, role: 'USER' }, shareId, 'TO_TRY');
    const mine = await listOf('sam', ids.sam);
    expect(mine.find((e) => e.id === id)).toMatchObject({
      sharedWithCurrentUser: true,
      cheerCount: 1,
      cheeredByMe: true,
    });
  });

  it('the activity feed’s entries carry their counts as the reader has them', async () => {
    const id = await entry('FOLLOWERS', 'For my followers');
    await vault.ctx.outbox.idle();
    await cheer(id, 'fern');
    await commentId(id, 'olive', 'Thanks!');
    const res = await vault.request('/api/activity', { cookie: cookies.fern });
    const page = activityPageSchema.parse(await json(res));
    const item = page.activities.find((a) => a.beverage.id === id);
    expect(item?.beverage).toMatchObject({ cheerCount: 1, cheeredByMe: true, commentCount: 1 });
  });
});

describe('who may cheer and comment: whoever may see the entry', () => {
  it('a PRIVATE entry is not found by anyone but its owner and admins', async () => {
    const id = await entry('PRIVATE');
    await everyRouteAnswers(id, 'mia', 404, 'Beverage not found');
    await everyRouteAnswers(id, 'fern', 404, 'Beverage not found');
    expect((await cheer(id, 'olive')).status).toBe(200);
    expect((await cheer(id, 'root')).status).toBe(200);
    expect((await comment(id, 'olive', 'Note to self')).status).toBe(201);
    expect(await rows('comments')).toBe(1);
  });

  it('a FOLLOWERS entry is for followers: a user who does not follow the owner gets 404', async () => {
    const id = await entry('FOLLOWERS');
    await everyRouteAnswers(id, 'mia', 404, 'Beverage not found');
    expect((await cheer(id, 'fern')).status).toBe(200);
    expect((await comment(id, 'fern', 'Following along')).status).toBe(201);
    expect((await comments(id, 'fern')).status).toBe(200);
  });

  it('a MEMBERS entry is every signed-in user’s to cheer and comment, and nobody’s signed out', async () => {
    const id = await entry('MEMBERS');
    expect((await cheer(id, 'mia')).status).toBe(200);
    expect((await comment(id, 'mia', 'Hello')).status).toBe(201);
    const anonymous = [
      await vault.request(`/api/beverages/${id}/cheer`, { method: 'POST' }),
      await vault.request(`/api/beverages/${id}/comments`),
      await vault.postJson(`/api/beverages/${id}/comments`, { content: 'Hi' }),
    ];
    expect(anonymous.map((res) => res.status)).toEqual([401, 401, 401]);
  });

  it('an entry shared with a user is theirs to cheer and comment, even when PRIVATE', async () => {
    const id = await entry('PRIVATE');
    await everyRouteAnswers(id, 'sam', 404);
    const share = await vault.postJson(
      `/api/beverages/${id}/share`,
      { userId: ids.sam },
      cookies.olive,
    );
    expect(share.status).toBe(200);
    expect((await cheer(id, 'sam')).status).toBe(200);
    expect((await comment(id, 'sam', 'Thanks for sharing')).status).toBe(201);
  });

  it('comments are seen by exactly those who may see the entry: once it is PRIVATE, the commenter gets 404', async () => {
    const id = await entry('MEMBERS');
    await commentId(id, 'mia', 'Visible for now');
    expect((await comments(id, 'mia')).status).toBe(200);
    const form = new FormData();
    form.append('visibility', 'PRIVATE');
    const patch = await vault.request(`/api/beverages/${id}`, {
      method: 'PATCH',
      body: form,
      cookie: cookies.olive,
    });
    expect(patch.status).toBe(200);
    await everyRouteAnswers(id, 'mia', 404, 'Beverage not found');
    const own = commentListSchema.parse(await json(await comments(id, 'olive')));
    expect(own.comments.map((c) => c.content)).toEqual(['Visible for now']);
  });

  it('an unknown entry is 404 and a malformed id 400, both with a message', async () => {
    await everyRouteAnswers(999_999, 'mia', 404, 'Beverage not found');
    const res = await vault.request('/api/beverages/abc/cheer', {
      method: 'POST',
      cookie: cookies.mia,
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'Beverage id must be a positive integer' });
  });
});

describe('comments', () => {
  it('a comment is trimmed plain text with its author, and the thread is oldest first', async () => {
    const id = await entry();
    const res = await comment(id, 'mia', '  <b>Smoky</b>, https://example.com/notes  ');
    expect(res.status).toBe(201);
    const created = commentResponseSchema.strict().parse(await json(res)).comment;
    expect(created).toEqual({
      id: expect.any(Number),
      author: { fullName: 'Mia Member', username: 'mia', handle: null, avatarUrl: null },
      content: '<b>Smoky</b>, https://example.com/notes',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      canDelete: true,
      parentId: null,
      audience: 'PUBLIC',
      deleted: false,
      mentions: [],
      cheerCount: 0,
      cheeredByMe: false,
    });
    await commentId(id, 'fern', 'Second');
    await commentId(id, 'olive', 'Third');
    const thread = commentListSchema.strict().parse(await json(await comments(id, 'fern')));
    expect(thread.comments.map((c) => [c.author.username, c.content, c.canDelete])).toEqual([
      ['mia', '<b>Smoky</b>, https://example.com/notes', false],
      ['fern', 'Second', true],
      ['olive', 'Third', false],
    ]);
    const owners = commentListSchema.parse(await json(await comments(id, 'olive')));
    expect(owners.comments.map((c) => c.canDelete)).toEqual([true, true, true]);
  });

  it('an empty, blank, missing or too long comment is refused with 400 and stores nothing', async () => {
    const id = await entry();
    const refused: [unknown, string][] = [
      ['', 'Comment is required'],
      ['  \n\t ', 'Comment is required'],
      [undefined, 'Comment is required'],
      ['x'.repeat(1001), 'Comment must be at most 1000 characters'],
    ];
    for (const [content, message] of refused) {
      const res = await comment(id, 'mia', content);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message });
    }
    const extra = await vault.postJson(
      `/api/beverages/${id}/comments`,
      { content: 'Hi', html: true },
      cookies.mia,
    );
    expect(extra.status).toBe(400);
    expect(await rows('comments')).toBe(0);
    expect((await comment(id, 'mia', ` ${'x'.repeat(1000)} `)).status).toBe(201);
  });

  it('the entry’s owner deletes any comment on it, an author their own, anyone else gets 403', async () => {
    const id = await entry();
    const mias = await commentId(id, 'mia', 'By Mia');
    const ferns = await commentId(id, 'fern', 'By Fern');
    const olives = await commentId(id, 'olive', 'By Olive');
    for (const [commentId, who] of [
      [mias, 'fern'],
      [olives, 'mia'],
      [ferns, 'root'],
    ] as const) {
      const res = await deleteComment(id, commentId, who);
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual({
        message: "Only the comment's author or the entry's owner can delete it",
      });
    }
    expect((await deleteComment(id, mias, 'mia')).status).toBe(204);
    expect((await deleteComment(id, ferns, 'olive')).status).toBe(204);
    const left = commentListSchema.parse(await json(await comments(id, 'mia')));
    expect(left.comments.map((c) => c.content)).toEqual(['By Olive']);
    const again = await deleteComment(id, mias, 'mia');
    expect(again.status).toBe(404);
    expect(await json(again)).toEqual({ message: 'Comment not found' });
  });

  it('a comment is deleted only under its own entry: another entry’s id finds nothing', async () => {
    const first = await entry('MEMBERS', 'First');
    const second = await entry('MEMBERS', 'Second');
    const onFirst = await commentId(first, 'mia', 'On the first');
    const res = await deleteComment(second, onFirst, 'olive');
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'Comment not found' });
    expect(await rows('comments')).toBe(1);
  });

  it('deleting an entry deletes its cheers and comments', async () => {
    const id = await entry();
    const kept = await entry('MEMBERS', 'Kept');
    await cheer(id, 'mia');
    await cheer(kept, 'mia');
    await commentId(id, 'fern', 'Gone soon');
    const res = await vault.request(`/api/beverages/${id}`, {
      method: 'DELETE',
      cookie: cookies.olive,
    });
    expect(res.status).toBe(204);
    await vault.ctx.outbox.idle();
    expect([await rows('cheers'), await rows('comments')]).toEqual([1, 0]);
  });
});
