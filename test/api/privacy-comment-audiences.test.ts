import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beverageResponseSchema } from '../../contract/beverages.ts';
import { commentListSchema } from '../../contract/conversation.ts';
import type { CommentAudience } from '../../contract/enums.ts';
import { notificationListSchema } from '../../contract/social.ts';
import { json } from '../helpers/json.ts';
import { signedInPeople, type SignedInPerson } from '../helpers/signed-in-people.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Who reads a comment (docs/social.md, "Who reads a reply"; commentReadableSql in
 * src/visibility/policy.ts), as a table: every viewer × every audience, each read three ways:
 * the thread, the entry's comment count, and the notifications list. The author's comment on
 * the owner's MEMBERS entry (which every viewer may see) mentions the addressee; its audience
 * is set as a remote server's reply would have it. The owner's follower and the author's
 * follower follow them; the blocked viewer follows the owner too but was blocked by the author.
 */
type Viewer =
  | 'owner'
  | 'author'
  | 'addressee'
  | 'owner_follower'
  | 'author_follower'
  | 'other'
  | 'blocked'
  | 'admin';

const READS: Record<Viewer, Record<CommentAudience, boolean>> = {
  owner: { PUBLIC: true, OWNER_FOLLOWERS: true, AUTHOR_FOLLOWERS: true, DIRECT: false },
  author: { PUBLIC: true, OWNER_FOLLOWERS: true, AUTHOR_FOLLOWERS: true, DIRECT: true },
  addressee: { PUBLIC: true, OWNER_FOLLOWERS: true, AUTHOR_FOLLOWERS: true, DIRECT: true },
  owner_follower: { PUBLIC: true, OWNER_FOLLOWERS: true, AUTHOR_FOLLOWERS: false, DIRECT: false },
  author_follower: { PUBLIC: true, OWNER_FOLLOWERS: false, AUTHOR_FOLLOWERS: true, DIRECT: false },
  other: { PUBLIC: true, OWNER_FOLLOWERS: false, AUTHOR_FOLLOWERS: false, DIRECT: false },
  blocked: { PUBLIC: false, OWNER_FOLLOWERS: false, AUTHOR_FOLLOWERS: false, DIRECT: false },
  // Admins see every entry, but have no extra right to read a reply.
  admin: { PUBLIC: true, OWNER_FOLLOWERS: false, AUTHOR_FOLLOWERS: false, DIRECT: false },
};
const VIEWERS = Object.keys(READS) as Viewer[];
const AUDIENCES: CommentAudience[] = ['PUBLIC', 'OWNER_FOLLOWERS', 'AUTHOR_FOLLOWERS', 'DIRECT'];

let vault: TestVault;
let people: Record<Viewer, SignedInPerson>;

beforeAll(async () => {
  vault = createTestVault();
  people = await signedInPeople(vault, 'ca', {
    owner: 'USER',
    author: 'USER',
    addressee: 'USER',
    owner_follower: 'USER',
    author_follower: 'USER',
    other: 'USER',
    blocked: 'USER',
    admin: 'ADMIN',
  });
  const follow = async (who: Viewer, whom: Viewer) => {
    const res = await vault.postJson(
      `/api/users/${people[whom].id}/follow`,
      {},
      people[who].cookie,
    );
    expect(res.status).toBeLessThan(300);
  };
  await follow('owner_follower', 'owner');
  await follow('author_follower', 'author');
  await follow('blocked', 'owner');
  const block = await vault.postJson(
    '/api/users/blocks',
    { username: 'ca_blocked' },
    people.author.cookie,
  );
  expect(block.status).toBe(201);
});
afterAll(() => vault.close());

/** The author's comment with that audience on a new entry of the owner's; their ids. */
async function commentWith(audience: CommentAudience) {
  const entry = await vault.logEntry(people.owner.cookie, {
    name: `Talisker ${audience}`,
    type: 'WHISKEY',
    visibility: 'MEMBERS',
  });
  const ref = { kind: 'local' as const, id: entry.id };
  const { database, transaction } = vault.ctx.database;
  const content = `@ca_addressee a word for ${audience}`;
  // One transaction, as a received reply is stored: the notifications are made after it.
  const commentId = await transaction(async () => {
    const made = await vault.ctx.conversation.comment(
      { id: people.author.id, role: 'USER' },
      ref,
      content,
    );
    await database.prepare('UPDATE comments SET audience = ? WHERE id = ?').run(audience, made.id);
    return made.id;
  });
  await vault.ctx.outbox.idle();
  return { entryId: entry.id, commentId, content };
}

async function readBy(who: Viewer, entryId: number) {
  const { cookie } = people[who];
  const thread = await vault.request(`/api/beverages/${entryId}/comments`, { cookie });
  expect(thread.status).toBe(200);
  const one = await vault.request(`/api/beverages/${entryId}`, { cookie });
  expect(one.status).toBe(200);
  const alerts = await vault.request('/api/notifications', { cookie });
  return {
    thread: commentListSchema.parse(await json(thread)).comments.map((c) => c.id),
    count: beverageResponseSchema.parse(await json(one)).beverage.commentCount,
    notifications: notificationListSchema.parse(await json(alerts)).notifications,
  };
}

describe.each(AUDIENCES)('a %s comment', (audience) => {
  it('is in the thread, the count and the notifications of exactly those who read it', async () => {
    const { entryId, commentId, content } = await commentWith(audience);
    // A notification of it for every viewer, as if each had been told of it: the list shows
    // it only to those who read the comment.
    const authorActor = await vault.ctx.actors.localActorId(people.author.id);
    for (const who of VIEWERS) {
      await vault.ctx.database.database
        .prepare(
          `INSERT INTO notifications (recipient_id, type, status, sender_id, beverage_id,
             comment_id, message, created_at)
           VALUES (?, 'COMMENT', 'PENDING', ?, ?, ?, 'told of it', ?)`,
        )
        .run(people[who].id, authorActor, entryId, commentId, Date.now());
    }
    const seen: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const who of VIEWERS) {
      const reads = READS[who][audience];
      const got = await readBy(who, entryId);
      const about = got.notifications.filter((n) => n.beverage?.id === entryId);
      seen[who] = {
        thread: got.thread,
        count: got.count,
        told: about.some((n) => n.payload.message === 'told of it'),
        // What the delivery of the comment made: the owner's COMMENT, the addressee's MENTION.
        delivered: about.filter((n) => n.payload.message === content).map((n) => n.type),
      };
      const delivered =
        who === 'owner' && reads ? ['COMMENT'] : who === 'addressee' ? ['MENTION'] : [];
      expected[who] = {
        thread: reads ? [commentId] : [],
        count: reads ? 1 : 0,
        told: reads,
        delivered,
      };
    }
    expect(seen).toEqual(expected);
  });
});

describe('an owner-followers reply when the follow ends', () => {
  it('leaves the thread, the count and the notifications of the former follower', async () => {
    const { entryId, commentId } = await commentWith('OWNER_FOLLOWERS');
    expect((await readBy('owner_follower', entryId)).thread).toEqual([commentId]);
    const res = await vault.request(`/api/users/${people.owner.id}/follow`, {
      method: 'DELETE',
      cookie: people.owner_follower.cookie,
    });
    expect(res.status).toBeLessThan(300);
    const after = await readBy('owner_follower', entryId);
    expect([after.thread, after.count]).toEqual([[], 0]);
    const again = await vault.postJson(
      `/api/users/${people.owner.id}/follow`,
      {},
      people.owner_follower.cookie,
    );
    expect(again.status).toBeLessThan(300);
    expect((await readBy('owner_follower', entryId)).count).toBe(1);
  });
});
