import type { ActivityRow, TastingRow } from '../src/db/schema/index.ts';
import { payloadOf } from '../src/outbox/activities.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { EntryHandoffDeps } from './entry-handoff.ts';
import type { FederatedEntries } from './entry-rows.ts';
import type { TastingDeliveryJob } from './tasting-delivery.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first delivery that has somewhere to go (`send`, tasting-delivery.ts).

export interface TastingHandoffDeps {
  users: EntryHandoffDeps['users'];
  /** Federated entries only (entry-rows.ts): a PRIVATE one, or one kept out, is not read. */
  entries: Pick<FederatedEntries, 'byId' | 'generations'>;
  tastings: { byIds(ids: readonly number[]): Promise<TastingRow[]> };
  audience: EntryHandoffDeps['audience'];
  /** Builds the activity and puts it in Fedify's queue; loads Fedify on its first call. */
  send(job: TastingDeliveryJob): Promise<void>;
}

/**
 * Tastings of users with activityPubEnabled go to their remote followers as Notes
 * (tasting-note.ts), addressed like the entry's: only while the entry goes to the fediverse
 * (federated and not PRIVATE: entry-rows.ts reads no other). The outbox's CreateTasting,
 * UpdateTasting and DeleteTasting (src/tastings/activities.ts), after the write commits, become
 * Create / Update / Delete(Tombstone) of the tasting's Note, handed to Fedify (`send`). A Delete
 * goes only when the entry was in the fediverse until then: the tasting (or the entry) was
 * deleted, or the entry left the fediverse (the tasting stays).
 *
 * A tasting's Note follows its entry's in and out of the fediverse (entry-handoff.ts): when the
 * entry comes back, each tasting's UpdateTasting says `{"federation":"Create"}` and goes as a
 * Create, and the Note id takes the entry's generation (note-generations.ts), so servers that
 * keep a tombstone for the withdrawn id take it as new. A Delete names the generation in force
 * when it was recorded, a Create or Update the current one.
 *
 * A federating handler of the outbox (src/outbox/handoffs.ts), as entry-handoff.ts is: at least
 * once, with the same activity id each time (from the tasting id and its updatedAt), in order
 * per tasting.
 */
export function registerTastingHandoff(outbox: Outbox, deps: TastingHandoffDeps): void {
  async function sender(userId: number) {
    const user = await deps.users.findById(userId);
    if (!user?.activityPubEnabled || !(await deps.audience.hasRemoteFollowers(userId))) {
      return undefined;
    }
    return { username: user.username, fullName: user.fullName };
  }

  async function jobOf(activity: ActivityRow): Promise<TastingDeliveryJob | undefined> {
    const deleted = payloadOf(activity, 'DeleteTasting');
    if (deleted) {
      if (deleted.federated !== true || deleted.userId === undefined) return undefined;
      const names = await sender(deleted.userId);
      if (!names) return undefined;
      return {
        kind: 'Delete',
        ...names,
        tastingId: deleted.tastingId,
        // The Note id as it was when the Delete was recorded (a payload without its entry: 0).
        generation:
          deleted.beverageId === undefined
            ? 0
            : await deps.entries.generations.before(deleted.beverageId, activity.id),
        deletedAt: activity.createdAt,
      };
    }
    const update = payloadOf(activity, 'UpdateTasting');
    const payload = payloadOf(activity, 'CreateTasting') ?? update;
    if (!payload) return undefined;
    // Deleted since: its Delete follows.
    const [tasting] = await deps.tastings.byIds([payload.tastingId]);
    if (!tasting) return undefined;
    const reentry = update?.federation === 'Create' ? update.reentry : undefined;
    // The entry came back: its Note's new generation, counted here too (the same activity id
    // as the entry's handler counts, so once), in case this row is handled before the entry's.
    if (reentry !== undefined) await deps.entries.generations.reenter(tasting.beverageId, reentry);
    const entry = await deps.entries.byId(tasting.beverageId);
    if (!entry) return undefined;
    const names = await sender(entry.userId);
    if (!names) return undefined;
    const kind = activity.type === 'CreateTasting' || reentry !== undefined ? 'Create' : 'Update';
    return { kind, ...names, tasting, entry };
  }

  outbox.federate<TastingDeliveryJob>({
    name: 'tasting',
    types: ['CreateTasting', 'UpdateTasting', 'DeleteTasting'],
    job: jobOf,
    send: deps.send,
  });
}
