import type { Database } from '../db/database.ts';
import type {
  ExportBottle,
  ExportBottleEvent,
  ExportPlace,
  ExportTasting,
} from '../../contract/export-cellar.ts';

/** A tasting as cellar.json's reader needs it, with the stored photo's path (to add the file). */
export type ExportTastingRow = Omit<ExportTasting, 'photo'> & { photoPath: string | null };

/** A page of rows with ids above the last page's, and that last id. */
export interface Page<T> {
  rows: T[];
  lastId: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Reads one user's cellar for the export: their places (few, read at once), and their bottle
 * lines, bottle events and tastings a page at a time in id order (keyset paging, one short
 * statement each), like the entries (src/export/repository.ts).
 */
export function createExportCellarRepository(db: Database) {
  const places = db.prepare<ExportPlace & { createdAt: number }>(
    `SELECT id, name, parent_id AS parentId, created_at AS createdAt
       FROM places WHERE user_id = ? ORDER BY id`,
  );
  const bottles = db.prepare<
    Omit<ExportBottle, 'price' | 'createdAt' | 'updatedAt'> & {
      priceMinor: number | null;
      createdAt: number;
      updatedAt: number;
    }
  >(
    `SELECT id, beverage_id AS entryId, quantity, size_ml AS sizeMl, vintage, place_id AS placeId,
            purchased_on AS purchasedOn, price_minor AS priceMinor, currency, note,
            created_at AS createdAt, updated_at AS updatedAt
       FROM bottles WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?`,
  );
  // An event of an entry since deleted keeps its history but no longer names an entry.
  const events = db.prepare<Omit<ExportBottleEvent, 'at'> & { id: number; at: number }>(
    `SELECT e.id, CASE WHEN b.user_id = e.user_id THEN e.beverage_id END AS entryId, e.kind,
            e.change, e.at
       FROM bottle_events e LEFT JOIN beverages b ON b.id = e.beverage_id
      WHERE e.user_id = ? AND e.id > ? ORDER BY e.id LIMIT ?`,
  );
  const tastings = db.prepare<
    Omit<ExportTastingRow, 'opened' | 'createdAt' | 'updatedAt'> & {
      opened: number;
      createdAt: number;
      updatedAt: number;
    }
  >(
    `SELECT t.id, t.beverage_id AS entryId, t.tasted_on AS tastedOn, t.rating, t.notes,
            t.photo_path AS photoPath, t.vintage, t.opened, t.created_at AS createdAt,
            t.updated_at AS updatedAt
       FROM tastings t JOIN beverages b ON b.id = t.beverage_id
      WHERE b.user_id = ? AND t.id > ? ORDER BY t.id LIMIT ?`,
  );

  function page<R extends { id: number }, T>(rows: R[], shape: (row: R) => T): Page<T> {
    return { rows: rows.map(shape), lastId: rows.length ? rows[rows.length - 1]!.id : 0 };
  }

  return {
    async places(userId: number): Promise<ExportPlace[]> {
      return (await places.all(userId)).map((p) => ({ ...p, createdAt: iso(p.createdAt) }));
    },
    async bottles(userId: number, afterId: number, limit: number): Promise<Page<ExportBottle>> {
      return page(await bottles.all(userId, afterId, limit), ({ priceMinor, ...b }) => ({
        ...b,
        price: priceMinor === null ? null : priceMinor / 100,
        createdAt: iso(b.createdAt),
        updatedAt: iso(b.updatedAt),
      }));
    },
    async events(userId: number, afterId: number, limit: number): Promise<Page<ExportBottleEvent>> {
      return page(await events.all(userId, afterId, limit), ({ id: _id, ...e }) => ({
        ...e,
        at: iso(e.at),
      }));
    },
    async tastings(
      userId: number,
      afterId: number,
      limit: number,
    ): Promise<Page<ExportTastingRow>> {
      return page(await tastings.all(userId, afterId, limit), (t) => ({
        ...t,
        opened: Boolean(t.opened),
        createdAt: iso(t.createdAt),
        updatedAt: iso(t.updatedAt),
      }));
    },
  };
}

export type ExportCellarRepository = ReturnType<typeof createExportCellarRepository>;
