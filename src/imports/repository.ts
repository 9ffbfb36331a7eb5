import type { Database } from '../db/database.ts';

/** What makes two entries of one user the same for an import: name, maker and subtype. */
export interface EntryKey {
  name: string;
  makerName: string;
  subtype: string;
}

/**
 * The import's one read of entries: the name, maker and subtype of each entry in a user's
 * vault, to skip duplicates. That is the user's own entries and the entries others shared with
 * them that they added to their lists (an accepted share shows in their lists as a card of its
 * own, though the export leaves it out as not theirs). It only reads; imported entries are
 * written through the beverage repository (src/beverages/repository.ts).
 */
export function createImportRepository(db: Database) {
  const keysOf = db.prepare<{ name: string; makerName: string; subtype: string }>(
    `select name, maker_name as makerName, subtype from beverages where user_id = ?
     union all
     select b.name, b.maker_name, b.subtype from shares s join beverages b on b.id = s.beverage_id
      where s.recipient_id = ? and s.state = 'ACCEPTED'`,
  );
  return {
    async entryKeysOf(userId: number): Promise<EntryKey[]> {
      return keysOf.all(userId, userId);
    },
  };
}

export type ImportRepository = ReturnType<typeof createImportRepository>;
