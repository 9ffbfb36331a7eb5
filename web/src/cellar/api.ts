/**
 * The cellar's calls beyond the 'In cellar' flag: its figures, places and bottles by place,
 * typed from the route table (../api/call.ts). Shapes from contract/cellar.ts, as types only.
 * Writes go through `send`, the one place a queue for writes made offline can take over.
 */
import { call } from '../api/call.ts';
import type { CellarBottlePage, CellarSummary, Place } from '../../../contract/cellar.ts';
import type { BeverageType } from '../api/types.ts';

export type {
  CellarBottle,
  CellarBottlePage,
  CellarSummary,
  DrinkWindow,
  Money,
  Place,
} from '../../../contract/cellar.ts';

/** What the cellar screen is narrowed to: a type, a place ('none': bottles without one). */
export interface CellarFilter {
  type?: BeverageType | undefined;
  placeId?: string | undefined;
}

/** The filter as GET /beverages takes it (a place by its number). */
export function entryFilter(filter: CellarFilter): { type?: BeverageType; placeId?: number } {
  return {
    ...(filter.type && { type: filter.type }),
    ...(filter.placeId && { placeId: Number(filter.placeId) }),
  };
}

/** Bottle lines one page of the view by place holds. */
export const PLACE_VIEW_PAGE_SIZE = 200;

/** Every write of the cellar screen: the one place to swap in a queue for offline writes. */
export const send = call;

export function fetchCellarSummary(signal?: AbortSignal): Promise<CellarSummary> {
  return call('GET /cellar', { signal });
}

export async function fetchPlaces(signal?: AbortSignal): Promise<Place[]> {
  return (await call('GET /cellar/places', { signal })).places;
}

export function fetchCellarBottles(
  filter: CellarFilter,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<CellarBottlePage> {
  return call('GET /cellar/bottles', {
    query: { ...filter, limit: String(PLACE_VIEW_PAGE_SIZE), cursor },
    signal,
  });
}

export async function createPlace(name: string, parentId: number | null): Promise<Place> {
  return (await send('POST /cellar/places', { json: { name, parentId } })).place;
}

export async function renamePlace(id: number, name: string): Promise<Place> {
  return (await send('PATCH /cellar/places/{id}', { params: { id }, json: { name } })).place;
}

export async function movePlace(id: number, parentId: number | null): Promise<Place> {
  return (await send('PATCH /cellar/places/{id}', { params: { id }, json: { parentId } })).place;
}

export async function deletePlace(id: number): Promise<void> {
  await send('DELETE /cellar/places/{id}', { params: { id } });
}
