import type { InboxContext } from '@fedify/fedify';
import type { Create } from '@fedify/vocab';
import type { FederationDeps } from '../deps.ts';
import { downloadPhoto, ignore, incomingEntry, logger, receivedNote } from './received-note.ts';

/**
 * Create(Note) with the vault extension from a remote actor that local users follow: the entry is
 * stored, its photo downloaded and kept as the vault's own copy, and it appears in those users'
 * feeds. Checked in this order, cheapest first, so that nothing is fetched or stored for
 * activities the vault does not want: an actor some local user follows (ACCEPTED), the Note's
 * origin and author (received-note.ts), a Note not stored yet (a replay changes nothing).
 */
export async function onCreateNote(
  ctx: InboxContext<void>,
  create: Create,
  deps: FederationDeps,
): Promise<void> {
  const entries = deps.remoteEntries;
  const actor = create.actorId;
  if (!entries || !actor) return;
  const actorId = await entries.followedActorId(actor.href);
  if (actorId === undefined) {
    ignore(create, 'no local user follows its actor', 'debug');
    return;
  }
  const received = await receivedNote(ctx, create, deps);
  if (!received) return;
  const { note } = received;
  if (await entries.find(note.noteId)) {
    ignore(create, 'its Note is already stored', 'debug');
    return;
  }
  const photo = note.photo ? await downloadPhoto(note.photo.url, deps) : undefined;
  const outcome = await entries.store(actorId, incomingEntry(note), photo);
  logger.info('Create {id} from {actor}: entry {note} {outcome}', {
    id: create.id?.href ?? null,
    actor: actor.href,
    note: note.noteId,
    outcome,
  });
}
