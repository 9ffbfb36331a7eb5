import type { BeverageRow, Visibility } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { notFound } from '../domain-error.ts';
import type { UserRepository } from '../users/repository.ts';
import { changedSetting, federationChange } from './entry-visibility.ts';
import type { BeverageRepository, EntrySelection } from './repository.ts';

export interface VisibilityChangeInput {
  visibility: Visibility;
  federated?: boolean | undefined;
}

/**
 * Changing the visibility of many of a user's own entries at once (PATCH
 * /api/beverages/visibility): the ids given, or every entry (of a type or list). One
 * transaction; for a user who federates, each entry whose place in the fediverse changes
 * records its Update, Delete or Create (src/beverages/entry-visibility.ts) in the outbox, and
 * its tastings' Deletes or Creates with it.
 */
export function createVisibilityChanges(deps: {
  repo: BeverageRepository;
  users: UserRepository;
  transaction: Transaction;
  /** Records the entry's Update, Delete or Create, and its tastings' (service.ts). */
  announceChange(entry: BeverageRow, change: 'Update' | 'Delete' | 'Create'): Promise<void>;
  now: () => number;
}) {
  const { repo, users, transaction, announceChange } = deps;

  return {
    /** Returns how many entries changed. Ids that are not the user's entries answer 404. */
    change(
      userId: number,
      selection: EntrySelection,
      input: VisibilityChangeInput,
    ): Promise<number> {
      return transaction(async () => {
        const rows = await repo.selected(userId, selection);
        if ('ids' in selection && rows.length !== new Set(selection.ids).size) {
          throw notFound('Some of these entries are not yours or no longer exist');
        }
        const federates = (await users.findById(userId))?.activityPubEnabled ?? false;
        const updatedAt = new Date(deps.now());
        const groups = new Map<string, { ids: number[]; federated: boolean }>();
        for (const row of rows) {
          const after = changedSetting(row, input);
          if (after.visibility === row.visibility && after.federated === row.federated) continue;
          const key = String(after.federated);
          const group = groups.get(key) ?? { ids: [], federated: after.federated };
          group.ids.push(row.id);
          groups.set(key, group);
          if (!federates) continue;
          const change = federationChange(row, after);
          const changed = { ...row, ...after, updatedAt };
          if (change !== null) await announceChange(changed, change);
        }
        let updated = 0;
        for (const { ids, federated } of groups.values()) {
          await repo.setVisibility(ids, { visibility: input.visibility, federated, updatedAt });
          updated += ids.length;
        }
        return updated;
      });
    },
  };
}
