import type { InboxContext } from '@fedify/fedify';
import type { Like } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { localEntryOf, logOutcome, singleActor } from './conversation-common.ts';

/**
 * Like of a local entry's Note: a cheer by the remote actor (its id kept to match the Undo), if
 * the actor may see the entry (src/conversation/remote.ts decides). A Like of anything else (a
 * remote entry's Note, a comment) changes nothing.
 */
export function onLike(ctx: InboxContext<void>, like: Like, deps: FederationDeps): void {
  const conversation = deps.remoteConversation;
  const actor = singleActor(like);
  const noted = localEntryOf(deps.config.origin, like.objectId);
  if (!conversation || !actor || !like.id || !noted) {
    logOutcome(like, 'not a Like of a local entry:', 'refused');
    return;
  }
  logOutcome(like, 'cheer', conversation.receiveCheer(actor.href, noted, like.id.href));
}
