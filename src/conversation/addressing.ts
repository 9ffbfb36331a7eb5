import type { CommentMention } from '../../contract/conversation.ts';
import type { CommentAudience } from '../../contract/enums.ts';
import { mentionText, writtenMentions } from './mentions.ts';
import type { CommentRecord } from './repository.ts';
import type { Addressee, MentionedActor } from './thread-repository.ts';

/**
 * Who a local user's new comment is for (docs/social.md, "Threads" and "Mentions"): its
 * audience and the actors it is addressed to, by actor id (true: mentioned).
 *
 * - A comment on the entry is PUBLIC (read by whoever may see the entry).
 * - An answer is addressed to the author of the comment it answers. A private answer is DIRECT,
 *   to that author alone. Any other answer is never read wider than its parent: the answer to a
 *   PUBLIC or OWNER_FOLLOWERS comment keeps that audience; the answer to a DIRECT or
 *   AUTHOR_FOLLOWERS one (whose readers the answer's author cannot name) is DIRECT, to the
 *   parent's author and the people the parent was addressed to.
 * - Everyone the text mentions is addressed too, mentioned.
 * The author is never their own addressee.
 */
export function addressComment(input: {
  authorActorId: number;
  parent: { comment: CommentRecord; addressees: readonly Addressee[] } | undefined;
  isPrivate: boolean;
  mentionedActorIds: readonly number[];
}): { audience: CommentAudience; addressees: Map<number, boolean> } {
  const { parent } = input;
  const addressees = new Map<number, boolean>();
  let audience: CommentAudience = 'PUBLIC';
  if (parent) {
    addressees.set(parent.comment.actorId, false);
    const narrow =
      parent.comment.audience === 'DIRECT' || parent.comment.audience === 'AUTHOR_FOLLOWERS';
    if (input.isPrivate) audience = 'DIRECT';
    else if (narrow) {
      audience = 'DIRECT';
      for (const { actorId } of parent.addressees) addressees.set(actorId, false);
    } else audience = parent.comment.audience;
  }
  for (const actorId of input.mentionedActorIds) addressees.set(actorId, true);
  addressees.delete(input.authorActorId);
  return { audience, addressees };
}

/**
 * The actors a comment's text mentions: `@name` a user of this vault, `@name@host` a fediverse
 * account the vault already knows (or, with this vault's own host, a user of it). Unknown
 * names are no mention: they stay plain text.
 */
export async function mentionedActors(
  content: string,
  deps: {
    localHost: string;
    userIdByUsername(username: string): Promise<number | undefined>;
    localActorId(userId: number): Promise<number>;
    remoteActorByHandle(handle: string): Promise<number | undefined>;
  },
): Promise<number[]> {
  const found = new Set<number>();
  for (const mention of writtenMentions(content)) {
    if (mention.host === null || mention.host === deps.localHost) {
      const userId = await deps.userIdByUsername(mention.name.toLowerCase());
      if (userId !== undefined) found.add(await deps.localActorId(userId));
    } else {
      const actorId = await deps.remoteActorByHandle(`@${mention.name}@${mention.host}`);
      if (actorId !== undefined) found.add(actorId);
    }
  }
  return [...found];
}

/**
 * A comment's mentions as its JSON says them, with the text as the comment writes each, in the
 * order written.
 */
export function presentMentions(
  content: string,
  mentioned: readonly MentionedActor[],
  localHost: string,
): CommentMention[] {
  const named = mentioned.filter((actor) => actor.username !== null || actor.handle !== null);
  const mentions = named.map(({ username, handle }) => {
    const ways = username
      ? [`@${username}`, `@${username}@${localHost}`]
      : [handle!, `@${handle!.split('@')[1] ?? ''}`];
    return { text: mentionText(content, ways), username, handle: username ? null : handle };
  });
  const lower = content.toLowerCase();
  const at = (mention: CommentMention) => {
    const index = lower.indexOf(mention.text.toLowerCase());
    return index < 0 ? Infinity : index;
  };
  return mentions.sort((a, b) => at(a) - at(b));
}
