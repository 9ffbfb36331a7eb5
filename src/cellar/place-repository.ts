import type Database from 'better-sqlite3';
import { createReadCache } from '../db/read-cache.ts';

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
export function createPlaceRepository(sqlite: Database.Database) {
  const memo = createReadCache<number, PlaceRecord[]>(sqlite, { maxEntries: 200 });
  const listOf = sqlite.prepare(`SELECT ${COLUMNS} FROM places WHERE user_id = ? ORDER BY id`);
  const find = sqlite.prepare(`SELECT ${COLUMNS} FROM places WHERE id = ? AND user_id = ?`);
  const insert = sqlite.prepare(
    `INSERT INTO places (user_id, name, parent_id, created_at)
     VALUES (@userId, @name, @parentId, @createdAt) RETURNING ${COLUMNS}`,
  );
  const update = sqlite.prepare(
    `UPDATE places SET name = @name, parent_id = @parentId WHERE id = @id AND user_id = @userId
     RETURNING ${COLUMNS}`,
  );
  const remove = sqlite.prepare(
    'DELETE FROM places WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))',
  );
  return {
    /** Every place of the user's, as made (the same array until the database changes). */
    listOf(userId: number): readonly PlaceRecord[] {
      return memo.get(userId, () => listOf.all(userId) as PlaceRecord[])!;
    },

    /** One of the user's places; undefined for another user's or none. */
    find(userId: number, id: number): PlaceRecord | undefined {
      return find.get(id, userId) as PlaceRecord | undefined;
    },

    insert(place: Omit<PlaceRecord, 'id'>): PlaceRecord {
      return insert.get(place) as PlaceRecord;
    },

    /** Renames and moves a place of the user's. */
    update(place: Pick<PlaceRecord, 'id' | 'userId' | 'name' | 'parentId'>): PlaceRecord {
      return update.get(place) as PlaceRecord;
    },

    /** Deletes places of the user's. */
    delete(userId: number, ids: number[]): number {
      return remove.run(userId, JSON.stringify(ids)).changes;
    },
  };
}

export type PlaceRepository = ReturnType<typeof createPlaceRepository>;
