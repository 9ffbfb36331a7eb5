import { PLACE_MAX_DEPTH, PLACE_NAME_MAX_LENGTH } from '../../contract/cellar.ts';
import { createBottleRepository, type BottleRepository } from '../cellar/bottle-repository.ts';
import { createPlaceRepository, type PlaceRepository } from '../cellar/place-repository.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createTastingRepository, type TastingRepository } from '../tastings/repository.ts';
import type { MappedRow } from './rows.ts';

/**
 * What an import writes of an entry's cellar, in the batch's transaction, straight through the
 * cellar's repositories (as entries go through the entries' one): its places (found by their
 * path of names among the user's, made where missing), bottle lines, bottle events (a vault
 * export's; other files bring none, as the bottles had no history here) and tastings. No
 * activity, as for the entries themselves.
 */
export function createCellarWrites(deps: {
  places: Pick<PlaceRepository, 'listOf' | 'insert'>;
  bottles: Pick<BottleRepository, 'insert' | 'recordEvent'>;
  tastings: Pick<TastingRepository, 'insert'>;
}) {
  /** The user's places by parent and name, read afresh for each batch (the user may add some). */
  let known: Map<string, number> | null = null;
  const keyOf = (parentId: number | null, name: string) => `${parentId ?? ''}\u0000${name}`;

  async function placeAt(
    userId: number,
    path: readonly string[],
    at: number,
  ): Promise<number | null> {
    if (!known) {
      const places = await deps.places.listOf(userId);
      known = new Map(places.map((p) => [keyOf(p.parentId, p.name), p.id]));
    }
    let parentId: number | null = null;
    for (const raw of path.slice(0, PLACE_MAX_DEPTH)) {
      const name = raw.trim().slice(0, PLACE_NAME_MAX_LENGTH);
      if (!name) break;
      const key = keyOf(parentId, name);
      let id = known.get(key);
      if (id === undefined) {
        id = (await deps.places.insert({ userId, name, parentId, createdAt: at })).id;
        known.set(key, id);
      }
      parentId = id;
    }
    return parentId;
  }

  return {
    /** A new batch: the user's places are read again when first needed. */
    startBatch(): void {
      known = null;
    },

    /**
     * Writes what `row` brings of the cellar for the just-inserted entry `entryId` of
     * `userId`; `tastingPhotos` are the stored photos of its tastings, in order.
     */
    async write(
      entryId: number,
      userId: number,
      row: MappedRow,
      tastingPhotos: readonly (string | null)[],
      at: number,
    ): Promise<void> {
      // Parents first, so that each place made keeps its own date.
      const places = [...(row.places ?? [])].sort((a, b) => a.path.length - b.path.length);
      for (const { path, createdAt } of places) await placeAt(userId, path, createdAt);
      for (const b of row.bottles ?? []) {
        await deps.bottles.insert({
          beverageId: entryId,
          userId,
          quantity: b.quantity,
          sizeMl: b.sizeMl,
          vintage: b.vintage,
          placeId: b.place.length ? await placeAt(userId, b.place, at) : null,
          purchasedOn: b.purchasedOn,
          priceMinor: b.priceMinor,
          currency: b.priceMinor === null ? null : b.currency,
          note: b.note,
          createdAt: new Date(b.createdAt ?? at),
          updatedAt: new Date(b.updatedAt ?? b.createdAt ?? at),
        });
      }
      for (const e of row.events ?? []) {
        await deps.bottles.recordEvent({
          userId,
          beverageId: e.ofEntry ? entryId : null,
          kind: e.kind,
          change: e.change,
          at: new Date(e.at),
        });
      }
      for (const [i, t] of (row.tastings ?? []).entries()) {
        await deps.tastings.insert({
          beverageId: entryId,
          userId,
          tastedOn: t.tastedOn,
          rating: t.rating,
          notes: t.notes,
          photoPath: tastingPhotos[i] ?? null,
          vintage: t.vintage,
          opened: t.opened,
          createdAt: new Date(t.createdAt),
          updatedAt: new Date(t.updatedAt),
        });
      }
    },
  };
}

export type CellarWrites = ReturnType<typeof createCellarWrites>;

/** The cellar writes of imports over the vault's database. */
export function createImportCellar(database: DatabaseHandle): CellarWrites {
  return createCellarWrites({
    places: createPlaceRepository(database.database),
    bottles: createBottleRepository(database.database),
    tastings: createTastingRepository(database.database),
  });
}
