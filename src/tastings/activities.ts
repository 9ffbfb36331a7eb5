import type { ActorRepository } from '../actors/repository.ts';
import type { BeverageRow, TastingRow } from '../db/schema/index.ts';
import type { Outbox } from '../outbox/outbox.ts';
import { isFederatedEntry } from '../visibility/policy.ts';

/**
 * What a tasting does besides its row: its owner's activity, recorded in the outbox inside the
 * write's transaction (src/outbox/), so it commits or rolls back with the write. From there the
 * outbox puts a new tasting into the feeds of the owner's local followers (src/feed/) and sends
 * it, changed and deleted, to their remote followers as a Note (federation/tasting-handoff.ts),
 * when the owner federates and the entry is federated and not PRIVATE. When the entry leaves the
 * fediverse its tastings' Notes are withdrawn with its own, and when it comes back they go again.
 * The payloads are src/outbox/kinds/entries.ts's.
 *
 * Every write of a tasting calls one of these in its transaction: the tastings routes
 * (service.ts) and opening a bottle (src/cellar/bottle-service.ts, through its
 * `onTastingWritten`).
 */
export function createTastingActivities(deps: {
  outbox: Pick<Outbox, 'record'>;
  actors: Pick<ActorRepository, 'localActorId'>;
  now: () => number;
}) {
  const { outbox, actors, now } = deps;

  async function recordDelete(
    tasting: TastingRow,
    entry: BeverageRow,
    federated: boolean,
  ): Promise<void> {
    await outbox.record({
      actorId: await actors.localActorId(entry.userId),
      type: 'DeleteTasting',
      beverageId: null,
      payload: {
        tastingId: tasting.id,
        beverageId: entry.id,
        userId: entry.userId,
        federated,
      },
      createdAt: now(),
    });
  }

  async function recordOf(
    type: 'CreateTasting' | 'UpdateTasting',
    tasting: TastingRow,
    entry: BeverageRow,
  ): Promise<void> {
    await outbox.record({
      actorId: await actors.localActorId(entry.userId),
      type,
      beverageId: entry.id,
      payload: { tastingId: tasting.id },
      createdAt: now(),
    });
  }

  return {
    /** A new tasting of `entry` was written (call inside its transaction). */
    written(tasting: TastingRow, entry: BeverageRow): Promise<void> {
      return recordOf('CreateTasting', tasting, entry);
    },

    /** A tasting was changed (call inside its transaction). */
    changed(tasting: TastingRow, entry: BeverageRow): Promise<void> {
      return recordOf('UpdateTasting', tasting, entry);
    },

    /** A tasting is being deleted, alone or with its entry (call inside its transaction). */
    deleted(tasting: TastingRow, entry: BeverageRow): Promise<void> {
      return recordDelete(tasting, entry, isFederatedEntry(entry));
    },

    /**
     * Its entry left the fediverse (made PRIVATE, or kept out of it; call inside that change's
     * transaction): the tasting stays, its Note is withdrawn as the entry's is, by a Delete.
     */
    withdrawn(tasting: TastingRow, entry: BeverageRow): Promise<void> {
      return recordDelete(tasting, entry, true);
    },

    /**
     * Its entry came back into the fediverse (call inside that change's transaction): the
     * tasting's Note goes again, as a Create. `reentry`: the id of the entry's activity that
     * brought it back (its Update sent as a Create).
     */
    async returned(tasting: TastingRow, entry: BeverageRow, reentry: number): Promise<void> {
      await outbox.record({
        actorId: await actors.localActorId(entry.userId),
        type: 'UpdateTasting',
        beverageId: entry.id,
        payload: {
          tastingId: tasting.id,
          federation: 'Create',
          reentry,
        },
        createdAt: now(),
      });
    },
  };
}

export type TastingActivities = ReturnType<typeof createTastingActivities>;
