import type { InboxContext } from '@fedify/fedify';
import type { Create } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { embeddedNote, localEntryOf, logOutcome, singleActor } from './conversation-common.ts';
import { sameOrigin } from './received-note.ts';

/**
 * Create(Note) whose Note replies to a local entry's Note (`inReplyTo`): a comment by the remote
 * actor, its HTML reduced to text, if the actor may see the entry (src/conversation/remote.ts).
 * The Note must be embedded, the actor's own (`attributedTo`) and on the actor's origin; a
 * replay changes nothing.
 *
 * Returns whether the Create was a reply to a local entry, so that any other Create goes on to
 * the entries' handler (create-note.ts).
 */
export async function onCreateReply(
  _ctx: InboxContext<void>,
  create: Create,
  deps: FederationDeps,
): Promise<boolean> {
  const conversation = deps.remoteConversation;
  const actor = singleActor(create);
  if (!conversation || !actor) return false;
  const note = await embeddedNote(create);
  const noted = localEntryOf(deps.config.origin, note?.inReplyTo);
  if (!note || !noted) return false;
  if (note.attributedTo !== actor.href || !sameOrigin(note.id, actor)) {
    logOutcome(create, 'a reply not by its actor:', 'refused');
    return true;
  }
  const outcome = conversation.receiveComment(
    actor.href,
    noted,
    note.id,
    note.text,
    note.published,
  );
  logOutcome(create, 'comment', outcome);
  return true;
}
