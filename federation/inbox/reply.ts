import type { InboxContext } from '@fedify/fedify';
import type { Create } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { noteAddressing } from './addressing.ts';
import { conversationNote, conversationTargetOf, logOutcome } from './conversation-common.ts';
import { sameOrigin } from './received-note.ts';

/**
 * Create(Note) whose Note replies (`inReplyTo`) to a local entry's Note, to a local comment's
 * Note or to a remote reply stored here: a comment by the remote actor under the same entry,
 * below the comment it answers, its HTML reduced to text, its audience and addressees read
 * from `to`, `cc` and its `Mention` tags (addressing.ts), if the actor may see the entry and
 * the comment answered (src/conversation/remote.ts). The Note must be embedded, the actor's
 * own (`attributedTo`) and on the actor's origin; a replay changes nothing.
 *
 * Returns whether the Create was a reply to something here, so that any other Create goes on
 * (a post that mentions a local user, create-mention.ts; an entry, create-note.ts).
 */
export async function onCreateReply(
  _ctx: InboxContext<void>,
  create: Create,
  deps: FederationDeps,
): Promise<boolean> {
  const created = await conversationNote(create, deps);
  const target = created && (await conversationTargetOf(deps, created.note.inReplyTo));
  if (!created || !target) return false;
  const { conversation, actor, note } = created;
  if (note.attributedTo !== actor.href || !sameOrigin(note.id, actor)) {
    logOutcome(create, 'a reply not by its actor:', 'refused');
    return true;
  }
  const outcome = await conversation.receiveComment(actor.href, {
    noteUri: note.id,
    text: note.text,
    publishedAt: note.published,
    inReplyTo: target,
    addressing: await noteAddressing(deps, note, actor),
  });
  logOutcome(create, 'comment', outcome);
  return true;
}
