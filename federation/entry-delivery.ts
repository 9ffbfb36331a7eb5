import type { Federation } from '@fedify/fedify';
import type { Activity } from '@fedify/vocab';
import type { EntryNotes } from './entry-notes.ts';
import type { FederatedEntryRow } from './entry-rows.ts';
import { createNoteActivity, deleteNoteActivity, noteUrl, updateNoteActivity } from './note.ts';

/** One entry activity to hand to Fedify, in plain data. */
export type EntryDeliveryJob =
  | {
      kind: 'Create' | 'Update';
      username: string;
      fullName: string;
      entryId: number;
      entry: FederatedEntryRow;
    }
  | {
      kind: 'Delete';
      username: string;
      fullName: string;
      entryId: number;
      /** The generation of the Note id the Delete is for (note-generations.ts). */
      generation: number;
      deletedAt: Date;
    };

/**
 * Hands one entry activity to Fedify: signed as the author and queued for every inbox of the
 * author's followers collection, one POST per shared inbox, in order per entry and server.
 * Resolves once it is in Fedify's queue (federation_queue), which delivers and retries in the
 * background.
 */
export async function sendEntryActivity(
  federation: Federation<void>,
  notes: EntryNotes,
  origin: string,
  job: EntryDeliveryJob,
): Promise<void> {
  const author = { username: job.username, fullName: job.fullName };
  const activity =
    job.kind === 'Delete'
      ? deleteNoteActivity({
          origin,
          username: job.username,
          entryId: job.entryId,
          generation: job.generation,
          deletedAt: job.deletedAt,
        })
      : job.kind === 'Create'
        ? createNoteActivity(await notes.input(job.entry, author))
        : updateNoteActivity(await notes.input(job.entry, author));
  // One key per entry, whatever the generation of its Note id.
  const key = noteUrl(origin, job.username, job.entryId);
  await sendToFollowers(federation, origin, job.username, activity, key);
}

/**
 * Queues `activity` of the local user `username` for every inbox of her followers collection,
 * signed as her, one POST per shared inbox. Per server, the activities of one `orderingKey` (the
 * Note they are about) go out one at a time, in the order they were queued (a retried one is
 * queued again, behind those already waiting).
 */
export async function sendToFollowers(
  federation: Federation<void>,
  origin: string,
  username: string,
  activity: Activity,
  orderingKey: URL,
): Promise<void> {
  const ctx = federation.createContext(new URL(origin), undefined);
  await ctx.sendActivity({ identifier: username }, 'followers', activity, {
    preferSharedInbox: true,
    // FEP-8fcf: each POST carries Collection-Synchronization (the followers collection, the
    // URL of that server's part of it, the digest of its accounts that follow), so the
    // receiving server can tell whether its idea of who follows the author is still right.
    syncCollection: true,
    orderingKey: orderingKey.href,
  });
}
