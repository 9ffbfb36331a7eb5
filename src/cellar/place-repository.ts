import type { Database } from '../db/database.ts';
import { createReadCache } from '../db/read-cache.ts';
import { withIdList } from '../db/id-list.ts';

/** A place of a user's, as stored. */
export interface PlaceRecord {
  id: number;
  userId: number;
  name: string;
  parentId: number | null;
  createdAt: number;
}

const COLUMNS = 'id, user_id AS userId, name, parent_id AS parentId, created_at AS createdAt';

/**
 * Data access for places: the only place that writes the places table. A user's places are
 * memoized until the database changes (the cellar screen asks for them with every view).
 */
export function createPlaceRepository(db: Database) {
  const memo = createReadCache<number, PlaceRecord[]>(db, { maxEntries: 200 });
  const listOf = db.prepare<PlaceRecord>(
    `SELECT ${COLUMNS} FROM places WHERE user_id = ? ORDER BY id`,
  );
  const find = db.prepare<PlaceRecord>(
    `SELECT ${COLUMNS} FROM places WHERE id = ? AND user_id = ?`,
  );
  const insert = db.prepare<PlaceRecord>(
    `INSERT INTO places (user_id, name, parent_id, created_at)
     VALUES (@userId, @name, @parentId, @createdAt) RETURNING ${COLUMNS}`,
  );
  const update = db.prepare<PlaceRecord>(
    `UPDATE places SET name = @name, parent_id = @parentId WHERE id = @id AND user_id = @userId
     RETURNING ${COLUMNS}`,
  );
  const remove = db.prepare(
    withIdList((ids) => `DELETE FROM places WHERE user_id = ? AND id IN ${ids('?')}`),
  );
  return {
    /** Every place of the user's, as made (the same array until the database changes). */
    async listOf(userId: number): Promise<readonly PlaceRecord[]> {
      return (await memo.get(userId, () => listOf.all(userId)))!;
    },

    /** One of the user's places; undefined for another user's or none. */
    find(userId: number, id: number): Promise<PlaceRecord | undefined> {
      return find.get(id, userId);
    },

    async insert(place: Omit<PlaceRecord, 'id'>): Promise<PlaceRecord> {
      return (await insert.get(place))!;
    },

    /** Renames and moves a place of the user's. */
    async update(
      place: Pick<PlaceRecord, 'id' | 'userId' | 'name' | 'parentId'>,
    ): Promise<PlaceRecord> {
      return (await update.get(place))!;
    },

    /** Deletes places of the user's. */
    async delete(userId: number, ids: number[]): Promise<number> {
      return (await remove.run(userId, JSON.stringify(ids))).changes;
    },
  };
}

export type PlaceRepository = ReturnType<typeof createPlaceRepository>;
