import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRemote } from '../helpers/fake-remote.ts';
import {
  like,
  post,
  undo,
  type Mentioned,
  type PostVisibility,
  type Shape,
} from './conversation-shapes.ts';
import { commentListSchema } from '../../contract/conversation.ts';
import { notificationListSchema } from '../../contract/social.ts';
import {
  api,
  closeConversationWorld,
  deliver,
  startConversationWorld,
  type ConversationWorld,
} from './conversation-world.ts';

/**
 * What remote servers send into a thread, in Mastodon's and GoToSocial's shapes, signed by fake
 * servers' real keys and posted to the real inboxes (personal and shared): a reply's audience
 * from its to/cc, replies below comments at any depth, Likes of comments, mentions. Checked in
 * what the vault stores (comments, comment_addressees, comment_cheers, notifications).
 */

let world: ConversationWorld;

beforeAll(async () => {
  world = await startConversationWorld({
    users: { alice: true, carol: true, dave: false },
    masto: ['bob', 'erin', 'mallory'],
    gts: ['ann', 'gus', 'mona'],
    followers: ['bob', 'erin', 'ann', 'gus'],
  });
});
afterAll(() => closeConversationWorld(world));

const sqlite = () => world.vault.ctx.database.sqlite;
const viewer = (name: string) => ({ id: world.users[name]!.id, role: 'USER' as const });

/** Each shape's servers and accounts: two followers of alice and a stranger. */
const CAST = {
  mastodon: { remote: () => world.masto, replier: 'bob', second: 'erin', stranger: 'mallory' },
  gotosocial: { remote: () => world.gts, replier: 'ann', second: 'gus', stranger: 'mona' },
} as const;

async function entry(visibility: 'MEMBERS' | 'FOLLOWERS' = 'MEMBERS') {
  const created = await world.vault.ctx.beverages.create(viewer('alice'), {
    type: 'BEER',
    name: 'Saison',
    visibility,
  });
  return { id: created.id, note: `${world.vault.url}/users/alice/entries/${created.id}` };
}

/** A vault user as a post mentions them. */
function local(username: string): Mentioned {
  return { id: `${world.vault.url}/users/${username}`, name: `@${username}@vault` };
}

function remoteAccount(remote: FakeRemote, name: string): Mentioned {
  return { id: remote.account(name).id, name: `@${remote.handle(name)}` };
}

function storedComment(uri: string) {
  return sqlite()
    .prepare('SELECT id, beverage_id, parent_id, audience, content FROM comments WHERE uri = ?')
    .get(uri) as
    | {
        id: number;
        beverage_id: number;
        parent_id: number | null;
        audience: string;
        content: string;
      }
    | undefined;
}

/** Whom a comment is addressed to: usernames for local users, actor URIs for the others. */
function addressees(commentId: number) {
  return sqlite()
    .prepare(
      `SELECT coalesce(u.username, a.uri) AS who, ca.mentioned FROM comment_addressees ca
       JOIN actors a ON a.id = ca.actor_id LEFT JOIN users u ON u.id = a.user_id
       WHERE ca.comment_id = ? ORDER BY who`,
    )
    .all(commentId) as { who: string; mentioned: number }[];
}

function notifications(username: string, type: string) {
  return sqlite()
    .prepare(
      `SELECT message, url, comment_id FROM notifications WHERE recipient_id = ? AND type = ?
       ORDER BY id`,
    )
    .all(world.users[username]!.id, type) as {
    message: string | null;
    url: string | null;
    comment_id: number | null;
  }[];
}

/** The thread as a user reads it through the API. */
async function thread(username: string, entryId: number) {
  const body = await api(world, username, `/api/beverages/${entryId}/comments`);
  return commentListSchema.parse(body).comments;
}

/** A user's notifications through the API: type, message, link and sender. */
async function told(username: string) {
  const body = notificationListSchema.parse(await api(world, username, '/api/notifications'));
  return body.notifications.map((n) => ({
    type: n.type,
    message: n.payload.message,
    url: n.payload.url,
    sender: n.sender.username,
  }));
}

/** A user blocks a remote account through the API. */
async function block(username: string, actorUri: string) {
  const res = await fetch(`${world.vault.url}/api/users/blocks`, {
    method: 'POST',
    headers: {
      cookie: world.users[username]!.cookie,
      origin: world.vault.url,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ actorUri }),
  });
  expect(res.status).toBe(201);
}

describe.each(['mastodon', 'gotosocial'] as Shape[])('%s-shaped', (shape) => {
  const cast = CAST[shape];
  const remote = () => cast.remote();
  const account = (name: string) => remote().account(name);
  const personal = () => `${world.vault.url}/users/alice/inbox`;

  async function reply(
    from: string,
    input: { inReplyTo: string; visibility: PostVisibility; mentions: Mentioned[]; to?: string[] },
    inbox?: string,
  ) {
    const made = post(shape, account(from), { ...input, text: `${from} says hi` });
    await deliver(world, remote(), from, made.activity, inbox);
    return String(made.note.id);
  }

  it('gives a reply the audience its to/cc name, and its addressees', async () => {
    const { note } = await entry();
    const alice = local('alice');
    const cases: [PostVisibility, string[] | undefined, string][] = [
      ['public', undefined, 'PUBLIC'],
      ['unlisted', undefined, 'PUBLIC'],
      ['private', [`${world.vault.url}/users/alice/followers`], 'OWNER_FOLLOWERS'],
      ['private', undefined, 'AUTHOR_FOLLOWERS'],
      ['direct', undefined, 'DIRECT'],
    ];
    for (const [visibility, to, audience] of cases) {
      const uri = await reply(cast.replier, { inReplyTo: note, visibility, mentions: [alice], to });
      const stored = storedComment(uri);
      expect(stored, `${visibility} ${to ? 'to her followers' : ''}`).toMatchObject({
        audience,
        parent_id: null,
        content: `@alice ${cast.replier} says hi`,
      });
      expect(addressees(stored!.id)).toContainEqual({ who: 'alice', mentioned: 1 });
    }
  });

  it('keeps a direct reply addressed to the owner alone; one that names no vault reader is dropped', async () => {
    const { id, note } = await entry();
    const uri = await reply(
      cast.replier,
      { inReplyTo: note, visibility: 'direct', mentions: [local('alice')] },
      personal(),
    );
    const stored = storedComment(uri)!;
    expect(stored).toMatchObject({ beverage_id: id, audience: 'DIRECT' });
    expect(addressees(stored.id)).toEqual([{ who: 'alice', mentioned: 1 }]);
    // The owner reads it, marked as private; other members who see the entry do not, nor count it.
    expect(await thread('alice', id)).toMatchObject([{ id: stored.id, audience: 'DIRECT' }]);
    expect(await thread('carol', id)).toEqual([]);
    expect(await thread('dave', id)).toEqual([]);
    const counted = await api(world, 'dave', `/api/beverages/${id}`);
    expect(counted).toMatchObject({ beverage: { commentCount: 0 } });
    expect(await told('alice')).toContainEqual({
      type: 'COMMENT',
      message: `@alice ${cast.replier} says hi`,
      url: undefined,
      sender: `@${remote().handle(cast.replier)}`,
    });
    // A public reply that mentions carol tells her.
    await reply(cast.replier, {
      inReplyTo: note,
      visibility: 'public',
      mentions: [local('carol')],
    });
    expect(await told('carol')).toContainEqual(
      expect.objectContaining({ type: 'MENTION', message: `@carol ${cast.replier} says hi` }),
    );
    // Addressed to another remote account only (and one vault user who does not federate).
    const other = remoteAccount(remote(), cast.second);
    const dropped = await reply(cast.replier, {
      inReplyTo: note,
      visibility: 'direct',
      mentions: [other, local('dave')],
    });
    expect(storedComment(dropped)).toBeUndefined();
  });

  it('stores replies two and three levels deep under their parents, in the same entry', async () => {
    const { id } = await entry();
    const top = world.vault.ctx.conversation.comment(
      viewer('carol'),
      { kind: 'local', id },
      'Brewed in May',
    );
    const carolsNote = `${world.vault.url}/users/carol/comments/${top.id}`;
    const second = await reply(
      cast.replier,
      { inReplyTo: carolsNote, visibility: 'public', mentions: [local('carol')] },
      personal(),
    );
    const third = await reply(cast.second, {
      inReplyTo: second,
      visibility: 'private',
      mentions: [remoteAccount(remote(), cast.replier), local('alice')],
    });
    const fourth = await reply(cast.replier, {
      inReplyTo: third,
      visibility: 'unlisted',
      mentions: [remoteAccount(remote(), cast.second)],
    });
    const [two, three, four] = [second, third, fourth].map((uri) => storedComment(uri)!);
    expect(two).toMatchObject({ beverage_id: id, parent_id: top.id, audience: 'PUBLIC' });
    expect(three).toMatchObject({
      beverage_id: id,
      parent_id: two!.id,
      audience: 'AUTHOR_FOLLOWERS',
    });
    expect(four).toMatchObject({ beverage_id: id, parent_id: three!.id, audience: 'PUBLIC' });
    expect(addressees(two!.id)).toEqual([{ who: 'carol', mentioned: 1 }]);
    expect(addressees(three!.id)).toEqual([
      { who: 'alice', mentioned: 1 },
      { who: account(cast.replier).id, mentioned: 1 },
    ]);
    // carol is told of the answer to her comment; the owner of each (mentioned in one or not).
    expect(notifications('carol', 'REPLY')).toContainEqual(
      expect.objectContaining({ comment_id: two!.id }),
    );
    const byComment = notifications('alice', 'COMMENT').map((n) => n.comment_id);
    expect(byComment).toEqual(expect.arrayContaining([two!.id, three!.id, four!.id]));
    // The thread shows each answer after its parent.
    expect((await thread('alice', id)).map((c) => [c.id, c.parentId])).toEqual([
      [top.id, null],
      [two!.id, top.id],
      [three!.id, two!.id],
      [four!.id, three!.id],
    ]);
    // alice answers the reply here (third level); an answer to hers (fourth) tells her as REPLY.
    const hers = world.vault.ctx.conversation.comment(
      viewer('alice'),
      { kind: 'local', id },
      {
        content: 'Thanks!',
        inReplyTo: two!.id,
      },
    );
    const fifth = await reply(cast.second, {
      inReplyTo: `${world.vault.url}/users/alice/comments/${hers.id}`,
      visibility: 'public',
      mentions: [local('alice')],
    });
    const five = storedComment(fifth)!;
    expect(five).toMatchObject({ beverage_id: id, parent_id: hers.id });
    expect(notifications('alice', 'REPLY')).toContainEqual(
      expect.objectContaining({ comment_id: five.id }),
    );
    // A direct answer to a remote reply that names no vault user is not kept.
    const hidden = await reply(cast.second, {
      inReplyTo: fourth,
      visibility: 'direct',
      mentions: [remoteAccount(remote(), cast.replier)],
    });
    expect(storedComment(hidden)).toBeUndefined();
    // A stranger (no follower of alice) cannot answer inside the thread either.
    const stray = await reply(cast.stranger, {
      inReplyTo: carolsNote,
      visibility: 'public',
      mentions: [local('carol')],
    });
    expect(storedComment(stray)).toBeUndefined();
  });

  it('follows the Update and Delete of a reply deep in a thread', async () => {
    const { id } = await entry();
    const top = world.vault.ctx.conversation.comment(viewer('carol'), { kind: 'local', id }, 'Hm');
    const carolsNote = `${world.vault.url}/users/carol/comments/${top.id}`;
    const made = post(shape, account(cast.replier), {
      inReplyTo: carolsNote,
      visibility: 'public',
      mentions: [local('carol')],
      text: 'first',
    });
    await deliver(world, remote(), cast.replier, made.activity);
    const uri = String(made.note.id);
    const edited = { ...made.note, content: '<p>second</p>', updated: new Date().toISOString() };
    const update = {
      '@context': made.activity['@context'],
      id: `${uri}#updates/1`,
      type: 'Update',
      actor: account(cast.replier).id,
      object: edited,
    };
    await deliver(world, remote(), cast.replier, update, personal());
    expect(storedComment(uri)).toMatchObject({ parent_id: top.id, content: 'second' });
    const answer = await reply(cast.second, {
      inReplyTo: uri,
      visibility: 'public',
      mentions: [remoteAccount(remote(), cast.replier)],
    });
    const deletion = (id: string) => ({
      '@context': made.activity['@context'],
      id: `${id}#delete`,
      type: 'Delete',
      actor: account(cast.replier).id,
      object: { id, type: 'Tombstone' },
    });
    // Answered: kept as a deleted comment, its answer under it.
    await deliver(world, remote(), cast.replier, deletion(uri));
    expect((await thread('alice', id)).map((c) => [c.parentId, c.deleted, c.content])).toEqual([
      [null, false, 'Hm'],
      [top.id, true, ''],
      [storedComment(uri)!.id, false, `@${cast.replier} ${cast.second} says hi`],
    ]);
    // Its answer's own author deletes it: both go.
    const byAnswerer = { ...deletion(answer), actor: account(cast.second).id };
    await deliver(world, remote(), cast.second, byAnswerer);
    expect(storedComment(answer)).toBeUndefined();
    expect(storedComment(uri)).toBeUndefined();
  });

  it('takes a Like of a comment as its cheer, once, and its Undo takes it back', async () => {
    const { id } = await entry();
    const top = world.vault.ctx.conversation.comment(
      viewer('carol'),
      { kind: 'local', id },
      'Lovely',
    );
    const carolsNote = `${world.vault.url}/users/carol/comments/${top.id}`;
    const cheers = (commentId: number) =>
      sqlite()
        .prepare('SELECT actor_id, activity_uri FROM comment_cheers WHERE comment_id = ?')
        .all(commentId) as { actor_id: number; activity_uri: string }[];
    const liked = like(shape, account(cast.replier), carolsNote, local('carol').id);
    await deliver(world, remote(), cast.replier, liked, personal());
    expect(cheers(top.id)).toEqual([
      {
        actor_id: world.vault.ctx.actors.findRemoteByUri(account(cast.replier).id)!.id,
        activity_uri: liked.id,
      },
    ]);
    await deliver(world, remote(), cast.replier, liked);
    expect(cheers(top.id)).toHaveLength(1);
    const cheered = () =>
      notifications('carol', 'COMMENT_CHEER').filter((n) => n.comment_id === top.id);
    expect(cheered()).toHaveLength(1);
    expect(await thread('carol', id)).toMatchObject([{ id: top.id, cheerCount: 1 }]);
    // A stranger's Like changes nothing.
    const stray = like(shape, account(cast.stranger), carolsNote);
    await deliver(world, remote(), cast.stranger, stray);
    expect(cheers(top.id)).toHaveLength(1);

    // A remote reply's own Note is liked the same way.
    const answer = await reply(cast.replier, {
      inReplyTo: carolsNote,
      visibility: 'public',
      mentions: [local('carol')],
    });
    const stored = storedComment(answer)!;
    await deliver(world, remote(), cast.second, like(shape, account(cast.second), answer));
    expect(cheers(stored.id)).toHaveLength(1);

    await deliver(world, remote(), cast.replier, undo(account(cast.replier), liked));
    expect(cheers(top.id)).toEqual([]);
    expect(cheered()).toEqual([]);
  });

  it('keeps a DIRECT comment to those it names: its author may answer it, nobody else like or answer it', async () => {
    const { note } = await entry();
    const direct = await reply(cast.replier, {
      inReplyTo: note,
      visibility: 'direct',
      mentions: [local('alice')],
    });
    const stored = storedComment(direct)!;
    await deliver(world, remote(), cast.second, like(shape, account(cast.second), direct));
    const answer = await reply(cast.second, {
      inReplyTo: direct,
      visibility: 'public',
      mentions: [local('alice')],
    });
    expect(
      sqlite()
        .prepare('SELECT count(*) FROM comment_cheers WHERE comment_id = ?')
        .pluck()
        .get(stored.id),
    ).toBe(0);
    expect(storedComment(answer)).toBeUndefined();
    // Its author, who reads it, may answer it (privately again).
    const own = await reply(cast.replier, {
      inReplyTo: direct,
      visibility: 'direct',
      mentions: [local('alice')],
    });
    expect(storedComment(own)).toMatchObject({ parent_id: stored.id, audience: 'DIRECT' });
  });

  it("tells a vault user of an answer to her comment on a remote vault's entry, which is that vault's thread", async () => {
    const author = world.vault.ctx.actors.findRemoteByUri(account(cast.replier).id)!;
    const carolActor = world.vault.ctx.actors.localActorId(world.users.carol!.id);
    sqlite()
      .prepare(
        `INSERT INTO follows (follower_id, followed_id, state, created_at)
         VALUES (?, ?, 'ACCEPTED', ?) ON CONFLICT DO NOTHING`,
      )
      .run(carolActor, author.id, Date.now());
    const noteUri = `${account(cast.replier).id}/entries/${Date.now()}`;
    const stored = await world.vault.ctx.remoteEntries.store(
      author.id,
      {
        noteUri,
        type: 'BEER',
        name: 'Orval',
        subtype: 'Trappist',
        makerName: 'Orval',
        rating: 4,
        notes: '',
        status: 'TRIED',
        publishedAt: new Date(),
        updatedAt: new Date(),
        photoUrl: null,
      },
      undefined,
    );
    expect(stored).toBe('stored');
    const remoteEntry = world.vault.ctx.remoteEntries.find(noteUri)!;
    const hers = world.vault.ctx.conversation.comment(
      viewer('carol'),
      { kind: 'remote', id: remoteEntry.id },
      'Lovely one',
    );
    await world.vault.ctx.outbox.idle();
    const answer = post(shape, account(cast.replier), {
      inReplyTo: `${world.vault.url}/users/carol/comments/${hers.id}`,
      visibility: 'public',
      mentions: [local('carol')],
      text: 'glad you like it',
    });
    await deliver(world, remote(), cast.replier, answer.activity);
    expect(await told('carol')).toContainEqual({
      type: 'MENTION',
      message: '@carol glad you like it',
      url: answer.note.url,
      sender: `@${remote().handle(cast.replier)}`,
    });
    expect(storedComment(String(answer.note.id))).toBeUndefined();
  });

  it('tells a vault user of a post that mentions her and answers nothing here; not once she blocked its author', async () => {
    const made = post(shape, account(cast.stranger), {
      visibility: 'public',
      mentions: [local('carol')],
      text: 'have you tried this one?',
      inReplyTo: `${remote().origin}/users/${cast.second}/statuses/1`,
    });
    const before = notifications('carol', 'MENTION').length;
    await deliver(
      world,
      remote(),
      cast.stranger,
      made.activity,
      `${world.vault.url}/users/carol/inbox`,
    );
    await deliver(world, remote(), cast.stranger, made.activity);
    expect(notifications('carol', 'MENTION').slice(before)).toEqual([
      { message: '@carol have you tried this one?', url: made.note.url, comment_id: null },
    ]);
    expect(await told('carol')).toContainEqual({
      type: 'MENTION',
      message: '@carol have you tried this one?',
      url: made.note.url,
      sender: `@${remote().handle(cast.stranger)}`,
    });
    // Nothing else of it is stored.
    expect(storedComment(String(made.note.id))).toBeUndefined();

    await block('carol', account(cast.stranger).id);
    const again = post(shape, account(cast.stranger), {
      visibility: 'direct',
      mentions: [local('carol')],
      text: 'hello?',
    });
    await deliver(world, remote(), cast.stranger, again.activity);
    expect(notifications('carol', 'MENTION').slice(before)).toHaveLength(1);
  });

  it("refuses an answer to and a Like of a vault user's comment from an account she blocked", async () => {
    const { id } = await entry();
    const top = world.vault.ctx.conversation.comment(
      viewer('carol'),
      { kind: 'local', id },
      'Mine',
    );
    const carolsNote = `${world.vault.url}/users/carol/comments/${top.id}`;
    await block('carol', account(cast.second).id);
    const answer = await reply(cast.second, {
      inReplyTo: carolsNote,
      visibility: 'public',
      mentions: [local('carol')],
    });
    await deliver(world, remote(), cast.second, like(shape, account(cast.second), carolsNote));
    expect(storedComment(answer)).toBeUndefined();
    expect(
      sqlite()
        .prepare('SELECT count(*) FROM comment_cheers WHERE comment_id = ?')
        .pluck()
        .get(top.id),
    ).toBe(0);
    // Someone she did not block answers the same comment.
    const other = await reply(cast.replier, {
      inReplyTo: carolsNote,
      visibility: 'public',
      mentions: [local('carol')],
    });
    expect(storedComment(other)).toMatchObject({ parent_id: top.id });
  });
});
