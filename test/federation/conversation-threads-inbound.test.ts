import { describe, expect, it } from 'vitest';
import { post, type PostVisibility, type Shape } from './conversation-shapes.ts';
import { inboundWorld } from './conversation-inbound-helpers.ts';
import { api, deliver } from './conversation-world.ts';

/**
 * Replies that remote servers send into a thread, in Mastodon's and GoToSocial's shapes (read
 * against their code: conversation-shapes.ts), signed by fake servers' real keys and posted to
 * the real inboxes (personal and shared): a reply's audience and addressees from its to/cc and
 * Mention tags, a direct reply kept to whom it names, replies at any depth under their parents
 * with their notifications, their Update and Delete. Checked in what the vault stores and what
 * its API shows each user.
 */

const { world, ...HELPERS } = inboundWorld();

const { viewer, entry, local, remoteAccount, storedComment, addressees } = HELPERS;
const { carolsComment, notifications, thread, told } = HELPERS;

describe.each(['mastodon', 'gotosocial'] as Shape[])('%s-shaped', (shape) => {
  const { cast, remote, account, personal, reply } = HELPERS.shapeHelpers(shape);

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
      const stored = await storedComment(uri);
      expect(stored, `${visibility} ${to ? 'to her followers' : ''}`).toMatchObject({
        audience,
        parent_id: null,
        content: `@alice ${cast.replier} says hi`,
      });
      expect(await addressees(stored!.id)).toContainEqual({ who: 'alice', mentioned: 1 });
    }
  });

  it('keeps a direct reply addressed to the owner alone; one that names no vault reader is dropped', async () => {
    const { id, note } = await entry();
    const uri = await reply(
      cast.replier,
      { inReplyTo: note, visibility: 'direct', mentions: [local('alice')] },
      personal(),
    );
    const stored = (await storedComment(uri))!;
    expect(stored).toMatchObject({ beverage_id: id, audience: 'DIRECT' });
    expect(await addressees(stored.id)).toEqual([{ who: 'alice', mentioned: 1 }]);
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
    expect(await storedComment(dropped)).toBeUndefined();
  });

  it('stores replies two and three levels deep under their parents, in the same entry', async () => {
    const { id } = await entry();
    const { comment: top, note: carolsNote } = await carolsComment(id, 'Brewed in May');
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
    const [two, three, four] = await Promise.all(
      [second, third, fourth].map(async (uri) => (await storedComment(uri))!),
    );
    expect(two).toMatchObject({ beverage_id: id, parent_id: top.id, audience: 'PUBLIC' });
    expect(three).toMatchObject({
      beverage_id: id,
      parent_id: two!.id,
      audience: 'AUTHOR_FOLLOWERS',
    });
    expect(four).toMatchObject({ beverage_id: id, parent_id: three!.id, audience: 'PUBLIC' });
    expect(await addressees(two!.id)).toEqual([{ who: 'carol', mentioned: 1 }]);
    expect(await addressees(three!.id)).toEqual([
      { who: 'alice', mentioned: 1 },
      { who: account(cast.replier).id, mentioned: 1 },
    ]);
    // carol is told of the answer to her comment; the owner of each (mentioned in one or not).
    expect(await notifications('carol', 'REPLY')).toContainEqual(
      expect.objectContaining({ comment_id: two!.id }),
    );
    const byComment = (await notifications('alice', 'COMMENT')).map((n) => n.comment_id);
    expect(byComment).toEqual(expect.arrayContaining([two!.id, three!.id, four!.id]));
    // The thread shows each answer after its parent.
    expect((await thread('alice', id)).map((c) => [c.id, c.parentId])).toEqual([
      [top.id, null],
      [two!.id, top.id],
      [three!.id, two!.id],
      [four!.id, three!.id],
    ]);
    // alice answers the reply here (third level); an answer to hers (fourth) tells her as REPLY.
    const hers = await world.vault.ctx.conversation.comment(
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
    const five = (await storedComment(fifth))!;
    expect(five).toMatchObject({ beverage_id: id, parent_id: hers.id });
    expect(await notifications('alice', 'REPLY')).toContainEqual(
      expect.objectContaining({ comment_id: five.id }),
    );
    // A direct answer to a remote reply that names no vault user is not kept.
    const hidden = await reply(cast.second, {
      inReplyTo: fourth,
      visibility: 'direct',
      mentions: [remoteAccount(remote(), cast.replier)],
    });
    expect(await storedComment(hidden)).toBeUndefined();
    // A stranger (no follower of alice) cannot answer inside the thread either.
    const stray = await reply(cast.stranger, {
      inReplyTo: carolsNote,
      visibility: 'public',
      mentions: [local('carol')],
    });
    expect(await storedComment(stray)).toBeUndefined();
  });

  it('follows the Update and Delete of a reply deep in a thread', async () => {
    const { id } = await entry();
    const { comment: top, note: carolsNote } = await carolsComment(id, 'Hm');
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
    expect(await storedComment(uri)).toMatchObject({ parent_id: top.id, content: 'second' });
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
      [(await storedComment(uri))!.id, false, `@${cast.replier} ${cast.second} says hi`],
    ]);
    // Its answer's own author deletes it: both go.
    const byAnswerer = { ...deletion(answer), actor: account(cast.second).id };
    await deliver(world, remote(), cast.second, byAnswerer);
    expect(await storedComment(answer)).toBeUndefined();
    expect(await storedComment(uri)).toBeUndefined();
  });
});
