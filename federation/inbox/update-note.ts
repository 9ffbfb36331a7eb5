import type { InboxContext } from '@fedify/fedify';
import type { Update } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { downloadPhoto, ignore, incomingEntry, logger, receivedNote } from './received-note.ts';

/**
 * Update(Note) of a stored remote entry, from the entry's own actor: the entry takes the edit
 * when it is newer than what is stored (a replayed or late Update changes nothing); the photo is
 * downloaded again only when its URL changed. An Update of a Note the vault never stored is
 * ignored (like Mastodon, the vault does not create entries from edits).
 *
 * Returns whether the Update was about a remote entry, so that another Update listener
 * (a remote actor's profile) can take the rest.
 */
export async function onUpdateNote(
  ctx: InboxContext<void>,
  update: Update,
  deps: FederationDeps,
): Promise<boolean> {
  const entries = deps.remoteEntries;
  const actor = update.actorId;
  const objectId = update.objectId;
  if (!entries || !actor || !objectId) return false;
  const current = await entries.find(objectId.href);
  if (!current) return false;
  if (current.actor.uri !== actor.href) {
    ignore(update, 'the entry belongs to another actor');
    return true;
  }
  const received = await receivedNote(ctx, update, deps);
  if (!received || received.note.noteId !== current.noteUri) return true;
  const { note } = received;
  const edited = note.updated ?? note.published;
  if (edited.getTime() <= current.updatedAt.getTime()) {
    ignore(update, 'the stored entry is as new or newer', 'debug');
    return true;
  }
  const photoUrl = note.photo?.url ?? null;
  const photo =
    photoUrl !== null && photoUrl === current.photoUrl && current.photoPath !== null
      ? ({ keep: true } as const)
      : { bytes: photoUrl ? await downloadPhoto(photoUrl, deps) : undefined };
  const outcome = await entries.update(current, incomingEntry(note), photo);
  logger.info('Update {id} from {actor}: entry {note} {outcome}', {
    id: update.id?.href ?? null,
    actor: actor.href,
    note: note.noteId,
    outcome,
  });
  return true;
}
