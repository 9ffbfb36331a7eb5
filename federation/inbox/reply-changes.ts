import type { InboxContext } from '@fedify/fedify';
import type { Delete, Update } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { embeddedNote, logOutcome, singleActor } from './conversation-common.ts';

/**
 * Update(Note) of a stored reply, from its author: the comment takes the new text when the
 * edit is newer than what is stored. Returns whether the Note was a stored reply, so that any
 * other Update goes on (an entry, a profile).
 */
export async function onUpdateReply(
  _ctx: InboxContext<void>,
  update: Update,
  deps: FederationDeps,
): Promise<boolean> {
  const conversation = deps.remoteConversation;
  const objectId = update.objectId;
  if (!conversation || !objectId || !(await conversation.isStoredReply(objectId.href))) {
    return false;
  }
  const actor = singleActor(update);
  const note = await embeddedNote(update);
  if (!actor || !note || note.id !== objectId.href) {
    logOutcome(update, 'an Update without its Note:', 'refused');
    return true;
  }
  const edited = note.updated ?? note.published;
  const outcome = await conversation.receiveCommentUpdate(actor.href, note.id, note.text, edited);
  logOutcome(update, 'comment edited', outcome);
  return true;
}

/**
 * Delete of a stored reply (a Tombstone or the Note's id), from its author: the comment and its
 * notification go. Returns whether it was a stored reply, so that any other Delete goes on.
 */
export async function onDeleteReply(
  _ctx: InboxContext<void>,
  deletion: Delete,
  deps: FederationDeps,
): Promise<boolean> {
  const conversation = deps.remoteConversation;
  const objectId = deletion.objectId;
  if (!conversation || !objectId || !(await conversation.isStoredReply(objectId.href))) {
    return false;
  }
  const actor = singleActor(deletion);
  const outcome = actor
    ? await conversation.receiveCommentDelete(actor.href, objectId.href)
    : 'refused';
  logOutcome(deletion, 'comment deleted', outcome);
  return true;
}
