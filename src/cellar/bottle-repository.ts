import type { Db } from '../db/client.ts';
import { createReadCache } from '../db/read-cache.ts';
import { and, asc, eq } from '../db/orm.ts';
import { bottleEvents, bottles, type BottleEventRow, type BottleRow } from '../db/schema/index.ts';

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
export function createBottleRepository(db: Db) {
  const sqlite = db.$client;
  const byPlaceMemo = createReadCache<number, ReadonlyMap<number, number>>(sqlite, {
    maxEntries: 200,
  });
  const byPlace = sqlite
    .prepare(
      `SELECT place_id, sum(quantity) FROM bottles WHERE user_id = ? AND place_id IS NOT NULL
       GROUP BY place_id`,
    )
    .raw();
  const countOf = sqlite
    .prepare('SELECT coalesce(sum(quantity), 0) FROM bottles WHERE beverage_id = ?')
    .pluck();
  const anyIn = sqlite
    .prepare(
      `SELECT 1 FROM bottles WHERE user_id = ?
         AND place_id IN (SELECT value FROM json_each(?)) LIMIT 1`,
    )
    .pluck();
  return {
    /** The entry's bottle lines, as added. */
    listForEntry(beverageId: number): BottleRow[] {
      return db
        .select()
        .from(bottles)
        .where(eq(bottles.beverageId, beverageId))
        .orderBy(asc(bottles.id))
        .all();
    },

    /** A bottle line of the entry; undefined when it is not the entry's. */
    find(beverageId: number, id: number): BottleRow | undefined {
      return db
        .select()
        .from(bottles)
        .where(and(eq(bottles.id, id), eq(bottles.beverageId, beverageId)))
        .get();
    },

    insert(row: NewBottle): BottleRow {
      return db.insert(bottles).values(row).returning().get();
    },

    update(id: number, changes: BottleChanges): BottleRow | undefined {
      return db.update(bottles).set(changes).where(eq(bottles.id, id)).returning().get();
    },

    delete(id: number): boolean {
      return db.delete(bottles).where(eq(bottles.id, id)).run().changes > 0;
    },

    /** How many bottles the entry has (the quantities of its lines). */
    countForEntry(beverageId: number): number {
      return countOf.get(beverageId) as number;
    },

    /**
     * The user's bottles in each place that holds any (the place's own, not those inside it);
     * the same map until the database changes.
     */
    countsByPlace(userId: number): ReadonlyMap<number, number> {
      return byPlaceMemo.get(userId, () => new Map(byPlace.all(userId) as [number, number][]))!;
    },

    /** Whether any bottle of the user's is in one of the places. */
    anyInPlaces(userId: number, placeIds: number[]): boolean {
      return anyIn.get(userId, JSON.stringify(placeIds)) !== undefined;
    },

    /** Records what happened to the number of bottles (in the caller's transaction). */
    recordEvent(event: NewBottleEvent): void {
      db.insert(bottleEvents).values(event).run();
    },
  };
}

export type BottleRepository = ReturnType<typeof createBottleRepository>;
