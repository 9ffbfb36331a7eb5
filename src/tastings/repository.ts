import { insertStatement, updateStatement } from '../beverages/row-statements.ts';
import type { Database } from '../db/database.ts';
import { rowReader } from '../db/rows.ts';
import { tastings, type TastingRow } from '../db/schema/index.ts';
import { withIdList } from '../db/id-list.ts';

export type NewTasting = Omit<TastingRow, 'id'>;
export type TastingChanges = Partial<
  Pick<TastingRow, 'tastedOn' | 'rating' | 'notes' | 'photoPath' | 'updatedAt'>
>;

/** Data access for tastings: the only place that queries the tastings table. */
export function createTastingRepository(db: Database) {
  const read = rowReader(tastings);
  const insertOne = insertStatement(db, tastings, 'tastings', {
    beverageId: 'beverage_id',
    userId: 'user_id',
    tastedOn: 'tasted_on',
    rating: 'rating',
    notes: 'notes',
    photoPath: 'photo_path',
    vintage: 'vintage',
    opened: 'opened',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  });
  const updateOne = updateStatement(db, tastings, 'tastings', {
    tastedOn: 'tasted_on',
    rating: 'rating',
    notes: 'notes',
    photoPath: 'photo_path',
    updatedAt: 'updated_at',
  });
  const find = db.prepare('SELECT * FROM tastings WHERE id = ? AND beverage_id = ?');
  const byIds = db.prepare(withIdList((ids) => `SELECT * FROM tastings WHERE id in ${ids('?')}`));
  const ownerOfPhoto = db.prepare<{ beverageId: number }>(
    'SELECT beverage_id AS beverageId FROM tastings WHERE photo_path = ?',
  );
  const allPhotoPaths = db
    .prepare('SELECT photo_path FROM tastings WHERE photo_path is not null')
    .pluck<string>();
  const listForEntry = db.prepare(
    'SELECT * FROM tastings WHERE beverage_id = ? ORDER BY tasted_on DESC, id DESC',
  );
  const deleteOne = db.prepare('DELETE FROM tastings WHERE id = ?');
  return {
    /** Writes a tasting; inside the caller's transaction when there is one. */
    insert(row: NewTasting): Promise<TastingRow> {
      return insertOne(row);
    },
    /** A tasting of the entry, or undefined when it is not the entry's. */
    async find(beverageId: number, id: number): Promise<TastingRow | undefined> {
      const row = await find.get(id, beverageId);
      return row === undefined ? undefined : read(row);
    },
    /** Tastings by id (the activity feed's page); missing ones are left out. */
    async byIds(ids: readonly number[]): Promise<TastingRow[]> {
      if (ids.length === 0) return [];
      return (await byIds.all(JSON.stringify(ids))).map(read);
    },
    /** The tasting a stored photo path belongs to, with its entry (tastings_photo_path_idx). */
    ownerOfPhoto(photoPath: string): Promise<{ beverageId: number } | undefined> {
      return ownerOfPhoto.get(photoPath);
    },
    /** Every stored photo path of a tasting, for the uploads sweep (src/media/sweep.ts). */
    allPhotoPaths(): Promise<string[]> {
      return allPhotoPaths.all();
    },
    /** The entry's tastings, newest first: by day, then as written. */
    async listForEntry(beverageId: number): Promise<TastingRow[]> {
      return (await listForEntry.all(beverageId)).map(read);
    },
    update(id: number, changes: TastingChanges): Promise<TastingRow | undefined> {
      return updateOne(id, changes);
    },
    async delete(id: number): Promise<boolean> {
      return (await deleteOne.run(id)).changes > 0;
    },
  };
}

export type TastingRepository = ReturnType<typeof createTastingRepository>;
