import { and, desc, eq, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { tastings, type TastingRow } from '../db/schema/index.ts';

export type NewTasting = Omit<TastingRow, 'id'>;
export type TastingChanges = Partial<
  Pick<TastingRow, 'tastedOn' | 'rating' | 'notes' | 'photoPath' | 'updatedAt'>
>;

/** Data access for tastings: the only place that queries the tastings table. */
export function createTastingRepository(db: Db) {
  return {
    /** Writes a tasting; inside the caller's transaction when there is one. */
    insert(row: NewTasting): TastingRow {
      return db.insert(tastings).values(row).returning().get();
    },
    /** A tasting of the entry, or undefined when it is not the entry's. */
    find(beverageId: number, id: number): TastingRow | undefined {
      return db
        .select()
        .from(tastings)
        .where(and(eq(tastings.id, id), eq(tastings.beverageId, beverageId)))
        .get();
    },
    /** Tastings by id (the activity feed's page); missing ones are left out. */
    byIds(ids: readonly number[]): TastingRow[] {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(tastings)
        .where(sql`${tastings.id} in (select value from json_each(${JSON.stringify(ids)}))`)
        .all();
    },
    /** The tasting a stored photo path belongs to, with its entry (tastings_photo_path_idx). */
    ownerOfPhoto(photoPath: string): { beverageId: number } | undefined {
      return db
        .select({ beverageId: tastings.beverageId })
        .from(tastings)
        .where(eq(tastings.photoPath, photoPath))
        .get();
    },
    /** Every stored photo path of a tasting, for the uploads sweep (src/media/sweep.ts). */
    allPhotoPaths(): string[] {
      return db
        .select({ photoPath: tastings.photoPath })
        .from(tastings)
        .where(sql`${tastings.photoPath} is not null`)
        .all()
        .map((r) => r.photoPath!);
    },
    /** The entry's tastings, newest first: by day, then as written. */
    listForEntry(beverageId: number): TastingRow[] {
      return db
        .select()
        .from(tastings)
        .where(eq(tastings.beverageId, beverageId))
        .orderBy(desc(tastings.tastedOn), desc(tastings.id))
        .all();
    },
    update(id: number, changes: TastingChanges): TastingRow | undefined {
      return db.update(tastings).set(changes).where(eq(tastings.id, id)).returning().get();
    },
    delete(id: number): boolean {
      return db.delete(tastings).where(eq(tastings.id, id)).run().changes > 0;
    },
  };
}

export type TastingRepository = ReturnType<typeof createTastingRepository>;
