import type { Federation } from '@fedify/fedify';
import type { TastingRow } from '../src/db/schema/index.ts';
import { sendToFollowers } from './entry-delivery.ts';
import type { EntryNotes } from './entry-notes.ts';
import type { FederatedEntryRow } from './entry-rows.ts';
import {
  createTastingActivity,
  deleteTastingActivity,
  tastingNoteUrl,
  updateTastingActivity,
} from './tasting-note.ts';

/** One tasting activity to hand to Fedify, in plain data. */
export type TastingDeliveryJob =
  | {
      kind: 'Create' | 'Update';
      username: string;
      fullName: string;
      tasting: TastingRow;
      entry: FederatedEntryRow;
    }
  | {
      kind: 'Delete';
      username: string;
      fullName: string;
      tastingId: number;
      /** The generation of the Note id the Delete is for: its entry's (note-generations.ts). */
      generation: number;
      deletedAt: Date;
    };

/**
 * Hands one tasting activity to Fedify, as sendEntryActivity does an entry's (entry-delivery.ts):
 * signed as the author and queued for every inbox of the author's followers collection, one
 * POST per shared inbox, in order per tasting and server.
 */
export async function sendTastingActivity(
  federation: Federation<void>,
  notes: EntryNotes,
  origin: string,
  job: TastingDeliveryJob,
): Promise<void> {
  const author = { username: job.username, fullName: job.fullName };
  const activity =
    job.kind === 'Delete'
      ? deleteTastingActivity({
          origin,
          username: job.username,
          tastingId: job.tastingId,
          generation: job.generation,
          deletedAt: job.deletedAt,
        })
      : job.kind === 'Create'
        ? createTastingActivity(await notes.tastingInput(job.tasting, job.entry, author))
        : updateTastingActivity(await notes.tastingInput(job.tasting, job.entry, author));
  const tastingId = job.kind === 'Delete' ? job.tastingId : job.tasting.id;
  // One key per tasting, whatever the generation of its Note id: its Delete when the entry
  // leaves the fediverse goes out before its Create when the entry comes back.
  const key = tastingNoteUrl(origin, job.username, tastingId);
  await sendToFollowers(federation, origin, job.username, activity, key);
}
