import type Database from 'better-sqlite3';
import { createListStatements } from './list-statements.ts';
import type { BeverageWithOwner } from './repository.ts';

/**
 * Entries by id, with their owners' names, for readers that hold ids of entries of many owners
 * (the activity feed): one statement for the entries and one lookup per distinct owner.
 */
export function createEntryReader(sqlite: Database.Database) {
  const lists = createListStatements(sqlite);
  const ownerName = sqlite.prepare('SELECT full_name FROM users WHERE id = ?').pluck();

  return {
    /** The entries that still exist, in the order of `ids`. */
    byIds(ids: number[]): BeverageWithOwner[] {
      const names = new Map<number, string>();
      return lists.byIds(ids).map((row) => {
        let name = names.get(row.userId);
        if (name === undefined) {
          name = (ownerName.get(row.userId) as string | undefined) ?? '';
          names.set(row.userId, name);
        }
        return Object.assign(row, { ownerName: name });
      });
    },
  };
}

export type EntryReader = ReturnType<typeof createEntryReader>;
