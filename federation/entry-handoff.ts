import type { ActivityRow } from '../src/db/schema/index.ts';
import { payloadOf } from '../src/outbox/activities.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { EntryAudience } from './entry-audience.ts';
import type { EntryDeliveryJob } from './entry-delivery.ts';
import type { FederatedEntries } from './entry-rows.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first delivery that has somewhere to go (`send`, entry-delivery.ts).

export interface EntryHandoffDeps {
  users: {
    findById(
      id: number,
    ): Promise<{ username: string; fullName: string; activityPubEnabled: boolean } | undefined>;
  };
  entries: Pick<FederatedEntries, 'byId' | 'generations'>;
  audience: Pick<EntryAudience, 'hasRemoteFollowers'>;
  /**
   * Builds the activity and puts it in Fedify's queue (resolves once it is queued); loads
   * Fedify on its first call (src/context.ts).
   */
  send(job: EntryDeliveryJob): Promise<void>;
}

/**
 * Entries of users with activityPubEnabled go to their remote followers, unless the entry is
 * PRIVATE or kept out of the fediverse (src/visibility/policy.ts; entry-rows.ts reads only the
 * others). A change of visibility arrives as an Update (sent as a Create when the entry has just
 * become federated) or as a Delete (it no longer is): the outbox's Create, Update and Delete of
 * an entry, after the write commits, become Create / Update / Delete(Tombstone) of its Note,
 * handed to Fedify (`send`), which signs them and delivers them through its queue to the
 * followers collection, one POST per shared inbox, with its retry policy. A user without
 * activityPubEnabled, or without remote followers, sends nothing; nor does the Delete of an
 * entry that was not in the fediverse when it was deleted (it never was, or it left before and
 * its Delete went then).
 *
 * A federating handler of the outbox (src/outbox/handoffs.ts): the outbox row stays until the
 * activity is in Fedify's queue, a failed hand-off is retried, and a crash before it ends sends
 * it again after the restart with the same activity id (ids come from the entry id, the
 * generation of its Note id and its updatedAt), which receivers treat as the same activity. The
 * activities of one entry are queued in order (its ordering key). An entry that comes back after
 * leaving gets a new Note id (note-generations.ts). A remote that is down never fails the
 * user's action: the action committed long before.
 */
export function registerEntryHandoff(outbox: Outbox, deps: EntryHandoffDeps): void {
  async function jobOf(activity: ActivityRow): Promise<EntryDeliveryJob | undefined> {
    if (activity.type === 'Delete') {
      const payload = payloadOf(activity, 'Delete');
      if (!payload?.federated) return undefined;
      const user = await deps.users.findById(payload.userId);
      if (!user?.activityPubEnabled || !(await deps.audience.hasRemoteFollowers(payload.userId))) {
        return undefined;
      }
      return {
        kind: 'Delete',
        ...names(user),
        entryId: payload.id,
        // The Note id as it was when the entry left (or was deleted).
        generation: await deps.entries.generations.before(payload.id, activity.id),
        deletedAt: activity.createdAt,
      };
    }
    if (activity.type !== 'Create' && activity.type !== 'Update') return undefined;
    if (activity.beverageId === null) return undefined; // deleted since: its Delete follows
    const comesBack = payloadOf(activity, 'Update')?.federation === 'Create';
    // Back in the fediverse: a new Note id, since servers keep a tombstone for the old one.
    // Counted whoever receives it, so the ids stay in step with the Deletes already sent.
    if (comesBack) await deps.entries.generations.reenter(activity.beverageId, activity.id);
    // Only a federated entry (entry-rows.ts): one that left the fediverse had its Delete sent.
    const entry = await deps.entries.byId(activity.beverageId);
    if (!entry) return undefined;
    const user = await deps.users.findById(entry.userId);
    if (!user?.activityPubEnabled || !(await deps.audience.hasRemoteFollowers(entry.userId))) {
      return undefined;
    }
    // An entry that has just become federated: its followers' servers never had it (this id).
    const kind = comesBack ? 'Create' : activity.type;
    return { kind, ...names(user), entryId: entry.id, entry };
  }

  outbox.federate<EntryDeliveryJob>({
    name: 'entry',
    types: ['Create', 'Update', 'Delete'],
    job: jobOf,
    send: deps.send,
  });
}

function names(user: { username: string; fullName: string }) {
  return { username: user.username, fullName: user.fullName };
}
