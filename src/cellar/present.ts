import type { Bottle } from '../../contract/cellar.ts';
import type { BottleRow } from '../db/schema/index.ts';
import type { PlaceRecord } from './place-repository.ts';

/** A price in minor units (cents) as the API gives it: two decimals. */
export const fromMinor = (minor: number) => Math.round(minor) / 100;
/** A price as the API takes it (two decimals at most) in minor units. */
export const toMinor = (price: number) => Math.round(price * 100);

/** The names from the top place down to `placeId`: ['Basement', 'Rack A']; [] without one. */
export function placePath(places: readonly PlaceRecord[], placeId: number | null): string[] {
  const byId = new Map(places.map((place) => [place.id, place]));
  const path: string[] = [];
  for (let at = byId.get(placeId ?? -1); at && path.length <= places.length;) {
    path.unshift(at.name);
    at = at.parentId === null ? undefined : byId.get(at.parentId);
  }
  return path;
}

/** A bottle line as the API answers it; `quantity` may be given (0 after opening the last). */
export function presentBottle(
  row: BottleRow,
  places: readonly PlaceRecord[],
  quantity = row.quantity,
): Bottle {
  return {
    id: row.id,
    beverageId: row.beverageId,
    quantity,
    sizeMl: row.sizeMl,
    vintage: row.vintage,
    placeId: row.placeId,
    placePath: placePath(places, row.placeId),
    purchasedOn: row.purchasedOn,
    price: row.priceMinor === null ? null : fromMinor(row.priceMinor),
    currency: row.currency,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  };
}
