import type { InboxContext } from '@fedify/fedify';
import type { Delete } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { ignore, logger } from './received-note.ts';

/**
 * Delete of a stored remote entry (its object a Tombstone or the Note's id), from the entry's
 * own actor: the entry, its feed items and the local copy of its photo go. A Delete of anything
 * else changes nothing here.
 *
 * Returns whether the Delete was about a remote entry, so that another Delete listener (a remote
 * actor deleting itself) can take the rest.
 */
export async function onDeleteNote(
  _ctx: InboxContext<void>,
  deletion: Delete,
  deps: FederationDeps,
): Promise<boolean> {
  const entries = deps.remoteEntries;
  const actor = deletion.actorId;
  const objectId = deletion.objectId;
  if (!entries || !actor || !objectId) return false;
  const current = await entries.find(objectId.href);
  if (!current) return false;
  if (current.actor.uri !== actor.href || deletion.actorIds.length !== 1) {
    ignore(deletion, 'the entry belongs to another actor');
    return true;
  }
  const outcome = await entries.remove(current);
  logger.info('Delete {id} from {actor}: entry {note} {outcome}', {
    id: deletion.id?.href ?? null,
    actor: actor.href,
    note: current.noteUri,
    outcome,
  });
  return true;
}
