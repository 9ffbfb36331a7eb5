import type { Database } from '../db/database.ts';
import { createListStatements } from './list-statements.ts';
import type { BeverageWithOwner } from './repository.ts';

/**
 * Entries by id, with their owners' names, for readers that hold ids of entries of many owners
 * (the activity feed): one statement for the entries and one lookup per distinct owner.
 */
export function createEntryReader(db: Database) {
  const lists = createListStatements(db);
  const ownerName = db.prepare('SELECT full_name FROM users WHERE id = ?').pluck<string>();

  return {
    /** The entries that still exist, in the order of `ids`. */
    async byIds(ids: number[]): Promise<BeverageWithOwner[]> {
      const names = new Map<number, string>();
      const entries: BeverageWithOwner[] = [];
      for (const row of await lists.byIds(ids)) {
        let name = names.get(row.userId);
        if (name === undefined) {
          name = (await ownerName.get(row.userId)) ?? '';
          names.set(row.userId, name);
        }
        entries.push(Object.assign(row, { ownerName: name }));
      }
      return entries;
    },
  };
}

export type EntryReader = ReturnType<typeof createEntryReader>;
