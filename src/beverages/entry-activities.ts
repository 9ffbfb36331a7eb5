import type { ActorRepository } from '../actors/repository.ts';
import type { BeverageRow } from '../db/schema/index.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { EntryFederationChange } from './entry-visibility.ts';

/**
 * What an entry's writes record besides its row: its owner's activity (Create, Update, Delete),
 * in the outbox inside the write's transaction (src/outbox/), so it commits or rolls back with
 * the write. From there the outbox delivers it to local followers and, when the entry goes to
 * the fediverse, to remote ones (federation/entry-handoff.ts). The entries service
 * (service.ts) and its change of many (visibility-changes.ts) call these.
 */
export function createEntryActivities(deps: {
  actors: Pick<ActorRepository, 'localActorId'>;
  outbox: Pick<Outbox, 'record'>;
  /**
   * In the transaction that takes an entry out of the fediverse or brings it back: what goes
   * with its Note follows it (its tastings' Notes withdrawn, or sent again).
   */
  onFederationChange?:
    ((entry: BeverageRow, change: EntryFederationChange) => Promise<void>) | undefined;
  now: () => number;
}) {
  const { actors, outbox, now } = deps;

  /**
   * Records what happened to an entry as its owner's activity and answers its id.
   * `federateAsCreate`: an Update that remote servers get as a Create (the entry has just
   * become federated).
   */
  async function announce(
    type: 'Create' | 'Update',
    entry: BeverageRow,
    federateAsCreate = false,
  ): Promise<number> {
    const activity = {
      actorId: await actors.localActorId(entry.userId),
      beverageId: entry.id,
      createdAt: now(),
    };
    if (type === 'Create') return outbox.record({ ...activity, type });
    return outbox.record({
      ...activity,
      type,
      payload: federateAsCreate ? { federation: 'Create' } : undefined,
    });
  }

  /**
   * Records the Delete of an entry that is deleted, or that leaves the fediverse (the entry
   * stays). `wasFederated`: whether its Note was in the fediverse until now; only then do
   * remote servers get a Delete (src/outbox/kinds/entries.ts).
   */
  async function announceDelete(entry: BeverageRow, wasFederated: boolean): Promise<void> {
    await outbox.record({
      actorId: await actors.localActorId(entry.userId),
      type: 'Delete',
      beverageId: null,
      payload: { id: entry.id, userId: entry.userId, federated: wasFederated },
      createdAt: now(),
    });
  }

  /**
   * Records a change of an entry as the fediverse sees it (entry-visibility.ts,
   * `federationChange`): an Update; a Delete when it leaves, with its tastings' Deletes; an
   * Update sent as a Create when it comes back, with its tastings' Creates.
   */
  async function announceChange(
    entry: BeverageRow,
    change: 'Update' | 'Delete' | 'Create',
  ): Promise<void> {
    if (change === 'Delete') {
      await announceDelete(entry, true);
      await deps.onFederationChange?.(entry, { kind: 'left' });
      return;
    }
    const reentry = await announce('Update', entry, change === 'Create');
    if (change === 'Create') {
      await deps.onFederationChange?.(entry, { kind: 'returned', reentry });
    }
  }

  return { announce, announceDelete, announceChange };
}
