import { insertStatement, updateStatement } from '../beverages/row-statements.ts';
import type { Database } from '../db/database.ts';
import { createReadCache } from '../db/read-cache.ts';
import { rowReader } from '../db/rows.ts';
import { bottleEvents, bottles, type BottleEventRow, type BottleRow } from '../db/schema/index.ts';
import { withIdList } from '../db/id-list.ts';

export type NewBottle = Omit<BottleRow, 'id'>;
export type BottleChanges = Partial<
  Pick<
    BottleRow,
    | 'quantity'
    | 'sizeMl'
    | 'vintage'
    | 'placeId'
    | 'purchasedOn'
    | 'priceMinor'
    | 'currency'
    | 'note'
    | 'updatedAt'
  >
>;
export type NewBottleEvent = Omit<BottleEventRow, 'id'>;

/**
 * Data access for bottles and their events (one aggregate: an event is written with the change
 * it records): the only place that writes the bottles and bottle_events tables.
 */
export function createBottleRepository(db: Database) {
  const read = rowReader(bottles);
  const byPlaceMemo = createReadCache<number, ReadonlyMap<number, number>>(db, {
    maxEntries: 200,
  });
  const byPlace = db.prepare<{ place_id: number; n: number }>(
    `SELECT place_id, sum(quantity) AS n FROM bottles WHERE user_id = ? AND place_id IS NOT NULL
     GROUP BY place_id`,
  );
  const countOf = db
    .prepare('SELECT coalesce(sum(quantity), 0) FROM bottles WHERE beverage_id = ?')
    .pluck<number>();
  const anyIn = db
    .prepare(
      withIdList(
        (ids) => `SELECT 1 FROM bottles WHERE user_id = ?
         AND place_id IN ${ids('?')} LIMIT 1`,
      ),
    )
    .pluck();
  const listForEntry = db.prepare('SELECT * FROM bottles WHERE beverage_id = ? ORDER BY id');
  const find = db.prepare('SELECT * FROM bottles WHERE id = ? AND beverage_id = ?');
  const changeable = {
    quantity: 'quantity',
    sizeMl: 'size_ml',
    vintage: 'vintage',
    placeId: 'place_id',
    purchasedOn: 'purchased_on',
    priceMinor: 'price_minor',
    currency: 'currency',
    note: 'note',
    updatedAt: 'updated_at',
  } as const;
  const insertOne = insertStatement(db, bottles, 'bottles', {
    beverageId: 'beverage_id',
    userId: 'user_id',
    createdAt: 'created_at',
    ...changeable,
  });
  const updateOne = updateStatement(db, bottles, 'bottles', changeable);
  const deleteOne = db.prepare('DELETE FROM bottles WHERE id = ?');
  const insertEvent = insertStatement(db, bottleEvents, 'bottle_events', {
    userId: 'user_id',
    beverageId: 'beverage_id',
    kind: 'kind',
    change: 'change',
    at: 'at',
  });
  return {
    /** The entry's bottle lines, as added. */
    async listForEntry(beverageId: number): Promise<BottleRow[]> {
      return (await listForEntry.all(beverageId)).map(read);
    },

    /** A bottle line of the entry; undefined when it is not the entry's. */
    async find(beverageId: number, id: number): Promise<BottleRow | undefined> {
      const row = await find.get(id, beverageId);
      return row === undefined ? undefined : read(row);
    },

    insert(row: NewBottle): Promise<BottleRow> {
      return insertOne(row);
    },

    update(id: number, changes: BottleChanges): Promise<BottleRow | undefined> {
      return updateOne(id, changes);
    },

    async delete(id: number): Promise<boolean> {
      return (await deleteOne.run(id)).changes > 0;
    },

    /** How many bottles the entry has (the quantities of its lines). */
    async countForEntry(beverageId: number): Promise<number> {
      return (await countOf.get(beverageId))!;
    },

    /**
     * The user's bottles in each place that holds any (the place's own, not those inside it);
     * the same map until the database changes.
     */
    async countsByPlace(userId: number): Promise<ReadonlyMap<number, number>> {
      return (await byPlaceMemo.get(
        userId,
        async () => new Map((await byPlace.all(userId)).map((r) => [r.place_id, r.n])),
      ))!;
    },

    /** Whether any bottle of the user's is in one of the places. */
    async anyInPlaces(userId: number, placeIds: number[]): Promise<boolean> {
      return (await anyIn.get(userId, JSON.stringify(placeIds))) !== undefined;
    },

    /** Records what happened to the number of bottles (in the caller's transaction). */
    async recordEvent(event: NewBottleEvent): Promise<void> {
      await insertEvent(event);
    },
  };
}

export type BottleRepository = ReturnType<typeof createBottleRepository>;
