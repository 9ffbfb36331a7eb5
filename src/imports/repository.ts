import type Database from 'better-sqlite3';

/** What makes two entries of one user the same for an import: name, maker and subtype. */
export interface EntryKey {
  name: string;
  makerName: string;
  subtype: string;
}

/**
 * The import's one read of entries: the name, maker and subtype of each of a user's entries,
 * to skip duplicates. It only reads; imported entries are written through the beverage
 * repository (src/beverages/repository.ts).
 */
export function createImportRepository(sqlite: Database.Database) {
  const keysOf = sqlite.prepare<[number], { name: string; makerName: string; subtype: string }>(
    'select name, maker_name as makerName, subtype from beverages where user_id = ?',
  );
  return {
    entryKeysOf(userId: number): EntryKey[] {
      return keysOf.all(userId);
    },
  };
}

export type ImportRepository = ReturnType<typeof createImportRepository>;
