import type { ActorRepository } from '../actors/repository.ts';
import type { BeverageRow, TastingRow } from '../db/schema/index.ts';
import type { Outbox } from '../outbox/outbox.ts';
import { isFederatedEntry } from '../visibility/policy.ts';

/** The payload of a tasting's activities: which tasting (CreateTasting, UpdateTasting). */
export interface TastingPayload {
  tastingId: number;
}

/**
 * The payload of a DeleteTasting: what receivers need once the rows are gone. `federated`:
 * whether its entry was in the fediverse when the tasting was deleted (only then does a Delete
 * leave the vault).
 */
export interface TastingDeletePayload extends TastingPayload {
  beverageId: number;
  userId: number;
  federated: boolean;
}

/**
 * What a tasting does besides its row: its owner's activity, recorded in the outbox inside the
 * write's transaction (src/outbox/), so it commits or rolls back with the write. From there the
 * outbox puts a new tasting into the feeds of the owner's local followers (src/feed/) and sends
 * it, changed and deleted, to their remote followers as a Note (federation/tasting-delivery.ts),
 * when the owner federates and the entry is federated and not PRIVATE.
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
  return {
    /** A new tasting of `entry` was written (call inside its transaction). */
    written(tasting: TastingRow, entry: BeverageRow): void {
      outbox.record({
        actorId: actors.localActorId(entry.userId),
        type: 'CreateTasting',
        beverageId: entry.id,
        payload: { tastingId: tasting.id } satisfies TastingPayload,
        createdAt: now(),
      });
    },

    /** A tasting was changed (call inside its transaction). */
    changed(tasting: TastingRow, entry: BeverageRow): void {
      outbox.record({
        actorId: actors.localActorId(entry.userId),
        type: 'UpdateTasting',
        beverageId: entry.id,
        payload: { tastingId: tasting.id } satisfies TastingPayload,
        createdAt: now(),
      });
    },

    /** A tasting is being deleted, alone or with its entry (call inside its transaction). */
    deleted(tasting: TastingRow, entry: BeverageRow): void {
      outbox.record({
        actorId: actors.localActorId(entry.userId),
        type: 'DeleteTasting',
        beverageId: null,
        payload: {
          tastingId: tasting.id,
          beverageId: entry.id,
          userId: entry.userId,
          federated: isFederatedEntry(entry),
        } satisfies TastingDeletePayload,
        createdAt: now(),
      });
    },
  };
}

export type TastingActivities = ReturnType<typeof createTastingActivities>;
