import type { Database } from '../db/database.ts';
import { createExportCellarRepository } from './cellar-repository.ts';

/** One of the exporting user's entries, as stored, with the usernames it is shared with. */
export interface ExportRow {
  id: number;
  type: string;
  name: string;
  subtype: string;
  maker_name: string;
  status: string;
  rating: number;
  notes: string;
  in_cellar: number;
  photo_path: string | null;
  created_at: number;
  updated_at: number;
  /** Usernames in order, separated by '\n' (string_agg); null when shared with nobody. */
  shared_with: string | null;
  /** Columns a later schema adds (per-entry visibility) come along under their own names. */
  [column: string]: unknown;
}

/**
 * Reads one user's entries for the export, a page at a time in id order (keyset paging): each
 * page is one short statement, so an export of 20,000 entries never holds the connection (or
 * the memory) for the whole vault, and other requests run between pages.
 */
export function createExportRepository(db: Database) {
  // The separator is a line break written into the SQL text (both engines take it as is).
  const page = db.prepare<ExportRow>(`
    SELECT b.*,
      (SELECT string_agg(u.username, '\n' ORDER BY u.username)
         FROM shares s JOIN users u ON u.id = s.recipient_id
        WHERE s.beverage_id = b.id) AS shared_with
    FROM beverages b
    WHERE b.user_id = ? AND b.id > ?
    ORDER BY b.id
    LIMIT ?`);
  const count = db.prepare<{ n: number }>('SELECT COUNT(*) AS n FROM beverages WHERE user_id = ?');

  return {
    /** Up to `limit` entries of `userId` with an id above `afterId`, in id order. */
    async page(userId: number, afterId: number, limit: number): Promise<ExportRow[]> {
      return page.all(userId, afterId, limit);
    },
    /** How many entries `userId` has. */
    async count(userId: number): Promise<number> {
      return (await count.get(userId))!.n;
    },
    /** The user's places, bottle lines, bottle events and tastings. */
    cellar: createExportCellarRepository(db),
  };
}

export type ExportRepository = ReturnType<typeof createExportRepository>;
