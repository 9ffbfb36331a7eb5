import type { InboxContext } from '@fedify/fedify';
import type { Like } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import {
  commentNoteOf,
  conversationTargetOf,
  logOutcome,
  singleActor,
} from './conversation-common.ts';

/**
 * Like of a local entry's Note, or of a comment's (a local comment's Note, a remote reply
 * stored here): a cheer of the entry or of the comment by the remote actor (its id kept to
 * match the Undo), if the actor may see the entry and read the comment
 * (src/conversation/remote.ts decides); of a local user's comment on a remote vault's entry, a
 * cheer of it by an actor of that vault. A Like of anything else (a remote entry's Note)
 * changes nothing.
 */
export async function onLike(
  _ctx: InboxContext<void>,
  like: Like,
  deps: FederationDeps,
): Promise<void> {
  const conversation = deps.remoteConversation;
  const actor = singleActor(like);
  const target = await conversationTargetOf(deps, like.objectId);
  // A local user's comment on a remote vault's entry: a cheer from that vault's thread.
  const foreign = target ? undefined : await commentNoteOf(deps, like.objectId);
  if (conversation && actor && like.id && foreign) {
    const outcome = await conversation.receiveForeignCommentCheer(
      actor.href,
      foreign,
      like.id.href,
    );
    logOutcome(like, 'comment cheer', outcome);
    return;
  }
  if (!conversation || !actor || !like.id || !target) {
    logOutcome(like, 'not a Like of a local entry or comment:', 'refused');
    return;
  }
  if ('entry' in target) {
    const outcome = await conversation.receiveCheer(actor.href, target.entry, like.id.href);
    logOutcome(like, 'cheer', outcome);
    return;
  }
  const outcome = await conversation.receiveCommentCheer(actor.href, target.comment, like.id.href);
  logOutcome(like, 'comment cheer', outcome);
}
