import type { InboxContext } from '@fedify/fedify';
import { Like, type Undo } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { conversationTargetOf, logOutcome, singleActor } from './conversation-common.ts';
import { embeddedOnly } from './follow-common.ts';

/**
 * Undo(Like): the actor's cheer of an entry or a comment goes, matched by the Like's id
 * (embedded or given alone), or by the actor and the entry or comment the embedded Like names. The embedded Like's actor must be the Undo's.
 *
 * Returns whether the Undo was of a Like (or of the id of a stored cheer), so that the Undo of a
 * Follow goes on to its own handler.
 */
export async function onUndoLike(
  _ctx: InboxContext<void>,
  undo: Undo,
  deps: FederationDeps,
): Promise<boolean> {
  const conversation = deps.remoteConversation;
  const actor = singleActor(undo);
  const objectId = undo.objectId;
  if (!conversation || !actor || !objectId) return false;
  let object: unknown;
  try {
    object = await undo.getObject({ documentLoader: embeddedOnly });
  } catch {
    object = null;
  }
  if (object instanceof Like) {
    if (object.actorId?.href !== actor.href) {
      logOutcome(undo, "another actor's Like:", 'refused');
      return true;
    }
    const liked = await conversationTargetOf(deps, object.objectId);
    const outcome = await conversation.receiveUndoCheer(actor.href, objectId.href, liked);
    logOutcome(undo, 'cheer taken back', outcome);
    return true;
  }
  if (object !== null) return false;
  // Only an id: a Like's if it names a stored cheer; otherwise a Follow's (undo.ts).
  return (await conversation.receiveUndoCheer(actor.href, objectId.href)) === 'stored';
}
