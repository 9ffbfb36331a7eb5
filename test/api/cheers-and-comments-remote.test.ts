import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cheerResponseSchema, commentListSchema } from '../../contract/conversation.ts';
import { activityPageSchema } from '../../contract/social.ts';
import type { IncomingEntry } from '../../src/remote-entries/service.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Cheers and comments on entries received from a remote vault (/api/activity/remote-entries/
 * {id}/…): for the local users whose feed holds the entry, i.e. who follow its actor. The
 * entries are stored through the service the inbox uses.
 */
const ACTOR = 'https://other-vault.example/users/bob';
let vault: TestVault;
let alice: string;
let dora: string;
let carol: string;
let actorId: number;
let n = 0;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const d = await vault.createUser({ username: 'dora', fullName: 'Dora Dram' });
  const c = await vault.createUser({ username: 'carol', fullName: 'Carol Cask' });
  alice = await vault.login('alice', a.password);
  dora = await vault.login('dora', d.password);
  carol = await vault.login('carol', c.password);
  const db = vault.ctx.database.database;
  const t = Date.now();
  actorId = (await db
    .prepare(
      `INSERT INTO actors (kind, uri, inbox_url, display_name, handle, created_at, updated_at)
       VALUES ('remote', ?, ?, 'Bob Brewer', '@bob@other-vault.example', ?, ?) RETURNING id`,
    )
    .pluck()
    .get(ACTOR, `${ACTOR}/inbox`, t, t)) as number;
  // Alice and Dora follow Bob; Carol does not.
  for (const user of [a, d]) {
    await db
      .prepare(
        `INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)`,
      )
      .run(await vault.ctx.actors.localActorId(user.id), actorId, t);
  }
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec('DELETE FROM remote_entries; DELETE FROM notifications;');
});

async function receive(): Promise<number> {
  n++;
  const entry: IncomingEntry = {
    noteUri: `${ACTOR}/entries/${n}`,
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
  expect(await vault.ctx.remoteEntries.store(actorId, entry, undefined)).toBe('stored');
  return (await vault.ctx.remoteEntries.find(entry.noteUri))!.id;
}

const base = (id: number) => `/api/activity/remote-entries/${id}`;
const cheer = (id: number, cookie: string, method = 'POST') =>
  vault.request(`${base(id)}/cheer`, { method, cookie });
const comment = (id: number, cookie: string, content: string) =>
  vault.postJson(`${base(id)}/comments`, { content }, cookie);
const comments = async (id: number, cookie: string) => {
  const res = await vault.request(`${base(id)}/comments`, { cookie });
  expect(res.status).toBe(200);
  return commentListSchema.parse(await json(res)).comments;
};

describe('cheers and comments on a remote vault’s entry', () => {
  it('the followers of its actor cheer it once and take it back, and the feed shows their counts', async () => {
    const id = await receive();
    const res = await cheer(id, alice);
    expect(res.status).toBe(200);
    expect(cheerResponseSchema.parse(await json(res))).toEqual({
      cheerCount: 1,
      cheeredByMe: true,
      commentCount: 0,
    });
    await cheer(id, alice);
    expect(await json(await cheer(id, dora))).toMatchObject({ cheerCount: 2 });
    expect((await comment(id, dora, 'Brett!')).status).toBe(201);
    const page = activityPageSchema.parse(
      await json(await vault.request('/api/activity', { cookie: alice })),
    );
    expect(page.activities.map((a) => a.beverage)).toMatchObject([
      { id, cheerCount: 2, cheeredByMe: true, commentCount: 1 },
    ]);
    expect(await json(await cheer(id, alice, 'DELETE'))).toEqual({
      cheerCount: 1,
      cheeredByMe: false,
      commentCount: 1,
    });
  });

  it('a user whose feed does not hold it gets 404 on every route', async () => {
    const id = await receive();
    const commentRes = await comment(id, alice, 'Mine');
    const commentId = (await json(commentRes)).comment.id as number;
    const answers = [
      await cheer(id, carol),
      await cheer(id, carol, 'DELETE'),
      await vault.request(`${base(id)}/comments`, { cookie: carol }),
      await comment(id, carol, 'Let me in'),
      await vault.request(`${base(id)}/comments/${commentId}`, { method: 'DELETE', cookie: carol }),
      await cheer(999_999, alice),
    ];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ message: 'Entry not found' });
    }
  });

  it('comments are listed oldest first; each author deletes their own and nobody else’s', async () => {
    const id = await receive();
    expect((await comment(id, alice, 'First')).status).toBe(201);
    expect((await comment(id, dora, 'Second')).status).toBe(201);
    const seen = await comments(id, alice);
    expect(seen.map((c) => [c.author.fullName, c.content, c.canDelete])).toEqual([
      ['Alice Archer', 'First', true],
      ['Dora Dram', 'Second', false],
    ]);
    const doras = seen[1]!.id;
    const refused = await vault.request(`${base(id)}/comments/${doras}`, {
      method: 'DELETE',
      cookie: alice,
    });
    expect(refused.status).toBe(403);
    const deleted = await vault.request(`${base(id)}/comments/${doras}`, {
      method: 'DELETE',
      cookie: dora,
    });
    expect(deleted.status).toBe(204);
    expect((await comments(id, dora)).map((c) => c.content)).toEqual(['First']);
  });

  it('a removed remote entry takes its cheers and comments with it, and notifies nobody here', async () => {
    const id = await receive();
    await cheer(id, alice);
    await comment(id, alice, 'Gone soon');
    await vault.ctx.outbox.idle();
    const count = async (sql: string) =>
      (await vault.ctx.database.database.prepare(sql).pluck().get()) as number;
    expect(await count('SELECT count(*) FROM notifications')).toBe(0);
    const stored = (await vault.ctx.remoteEntries.find(`${ACTOR}/entries/${n}`))!;
    expect(await vault.ctx.remoteEntries.remove(stored)).toBe('removed');
    expect([
      await count('SELECT count(*) FROM cheers'),
      await count('SELECT count(*) FROM comments'),
    ]).toEqual([0, 0]);
  });
});
