import { describe, expect, it } from 'vitest';
import { like, post, undo, type Shape } from './conversation-shapes.ts';
import { inboundWorld } from './conversation-inbound-helpers.ts';
import { deliver } from './conversation-world.ts';

/**
 * Cheers of comments and mentions that remote servers send, in Mastodon's and GoToSocial's
 * shapes, signed by fake servers' real keys and posted to the real inboxes: a Like of a local
 * comment and of a stored reply and its Undo, who may like or answer a DIRECT comment or one by
 * someone who blocked them, a post that only mentions a vault user, an answer to a vault user's
 * comment on a remote vault's entry. Checked in what the vault stores and what its API shows.
 */

const { world, ...HELPERS } = inboundWorld();

const { db, viewer, entry, local, storedComment } = HELPERS;
const { carolsComment, notifications, thread, told, block } = HELPERS;

describe.each(['mastodon', 'gotosocial'] as Shape[])('%s-shaped', (shape) => {
  const { cast, remote, account, personal, reply } = HELPERS.shapeHelpers(shape);

  it('takes a Like of a comment as its cheer, once, and its Undo takes it back', async () => {
    const { id } = await entry();
    const { comment: top, note: carolsNote } = await carolsComment(id, 'Lovely');
    const cheers = (commentId: number) =>
      db()
        .prepare<{ actor_id: number; activity_uri: string }>(
          'SELECT actor_id, activity_uri FROM comment_cheers WHERE comment_id = ?',
        )
        .all(commentId);
    const liked = like(shape, account(cast.replier), carolsNote, local('carol').id);
    await deliver(world, remote(), cast.replier, liked, personal());
    expect(await cheers(top.id)).toEqual([
      {
        actor_id: (await world.vault.ctx.actors.findRemoteByUri(account(cast.replier).id))!.id,
        activity_uri: liked.id,
      },
    ]);
    await deliver(world, remote(), cast.replier, liked);
    expect(await cheers(top.id)).toHaveLength(1);
    const cheered = async () =>
      (await notifications('carol', 'COMMENT_CHEER')).filter((n) => n.comment_id === top.id);
    expect(await cheered()).toHaveLength(1);
    expect(await thread('carol', id)).toMatchObject([{ id: top.id, cheerCount: 1 }]);
    // A stranger's Like changes nothing.
    const stray = like(shape, account(cast.stranger), carolsNote);
    await deliver(world, remote(), cast.stranger, stray);
    expect(await cheers(top.id)).toHaveLength(1);

    // A remote reply's own Note is liked the same way.
    const answer = await reply(cast.replier, {
      inReplyTo: carolsNote,
      visibility: 'public',
      mentions: [local('carol')],
    });
    const stored = (await storedComment(answer))!;
    const secondLike = like(shape, account(cast.second), answer);
    await deliver(world, remote(), cast.second, secondLike);
    expect(await cheers(stored.id)).toHaveLength(1);
    // An Undo whose Like has another id than the one stored (a server that makes ids up) takes
    // back the actor's cheer of the comment it names.
    const madeUp = { ...secondLike, id: `${String(secondLike.id)}-again` };
    await deliver(world, remote(), cast.second, undo(account(cast.second), madeUp));
    expect(await cheers(stored.id)).toEqual([]);

    await deliver(world, remote(), cast.replier, undo(account(cast.replier), liked));
    expect(await cheers(top.id)).toEqual([]);
    expect(await cheered()).toEqual([]);
  });

  it('keeps a DIRECT comment to those it names: its author may answer it, nobody else like or answer it', async () => {
    const { note } = await entry();
    const direct = await reply(cast.replier, {
      inReplyTo: note,
      visibility: 'direct',
      mentions: [local('alice')],
    });
    const stored = (await storedComment(direct))!;
    await deliver(world, remote(), cast.second, like(shape, account(cast.second), direct));
    const answer = await reply(cast.second, {
      inReplyTo: direct,
      visibility: 'public',
      mentions: [local('alice')],
    });
    expect(
      await db()
        .prepare('SELECT count(*) FROM comment_cheers WHERE comment_id = ?')
        .pluck()
        .get(stored.id),
    ).toBe(0);
    expect(await storedComment(answer)).toBeUndefined();
    // Its author, who reads it, may answer it (privately again).
    const own = await reply(cast.replier, {
      inReplyTo: direct,
      visibility: 'direct',
      mentions: [local('alice')],
    });
    expect(await storedComment(own)).toMatchObject({ parent_id: stored.id, audience: 'DIRECT' });
  });

  it("tells a vault user of an answer to her comment on a remote vault's entry, which is that vault's thread", async () => {
    const author = (await world.vault.ctx.actors.findRemoteByUri(account(cast.replier).id))!;
    const carolActor = await world.vault.ctx.actors.localActorId(world.users.carol!.id);
    await db()
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
    const remoteEntry = (await world.vault.ctx.remoteEntries.find(noteUri))!;
    const hers = await world.vault.ctx.conversation.comment(
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
    expect(await storedComment(String(answer.note.id))).toBeUndefined();
  });

  it('tells a vault user of a post that mentions her and answers nothing here; not once she blocked its author', async () => {
    const made = post(shape, account(cast.stranger), {
      visibility: 'public',
      mentions: [local('carol')],
      text: 'have you tried this one?',
      inReplyTo: `${remote().origin}/users/${cast.second}/statuses/1`,
    });
    const before = (await notifications('carol', 'MENTION')).length;
    await deliver(
      world,
      remote(),
      cast.stranger,
      made.activity,
      `${world.vault.url}/users/carol/inbox`,
    );
    await deliver(world, remote(), cast.stranger, made.activity);
    expect((await notifications('carol', 'MENTION')).slice(before)).toEqual([
      { message: '@carol have you tried this one?', url: made.note.url, comment_id: null },
    ]);
    expect(await told('carol')).toContainEqual({
      type: 'MENTION',
      message: '@carol have you tried this one?',
      url: made.note.url,
      sender: `@${remote().handle(cast.stranger)}`,
    });
    // Nothing else of it is stored.
    expect(await storedComment(String(made.note.id))).toBeUndefined();

    await block('carol', account(cast.stranger).id);
    const again = post(shape, account(cast.stranger), {
      visibility: 'direct',
      mentions: [local('carol')],
      text: 'hello?',
    });
    await deliver(world, remote(), cast.stranger, again.activity);
    expect((await notifications('carol', 'MENTION')).slice(before)).toHaveLength(1);
  });

  it("refuses an answer to and a Like of a vault user's comment from an account she blocked", async () => {
    const { id } = await entry();
    const { comment: top, note: carolsNote } = await carolsComment(id, 'Mine');
    await block('carol', account(cast.second).id);
    const answer = await reply(cast.second, {
      inReplyTo: carolsNote,
      visibility: 'public',
      mentions: [local('carol')],
    });
    await deliver(world, remote(), cast.second, like(shape, account(cast.second), carolsNote));
    expect(await storedComment(answer)).toBeUndefined();
    expect(
      await db()
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
    expect(await storedComment(other)).toMatchObject({ parent_id: top.id });
  });
});
