/**
 * The entry calls that only the screens make, so they are fetched with the screens rather than
 * in the first download (the calls the shell needs, a status change, are in shell-calls.ts). Every
 * call is typed from the route table (./call.ts).
 */
import { call } from './call.ts';
import { photoOf } from './client.ts';
import type { Beverage, BeveragePage, BeverageQuery, BeverageStatus } from './types.ts';

export { updateBeverage } from './shell-calls.ts';

/** GET /beverages: one page of entries, newest first. */
export function fetchBeverages(
  query: BeverageQuery = {},
  signal?: AbortSignal,
): Promise<BeveragePage> {
  return call('GET /beverages', { query: { ...query, q: query.q?.trim() }, signal });
}

/** GET /beverages/{id}: one entry the caller may see. */
export async function fetchBeverage(id: number, signal?: AbortSignal): Promise<Beverage> {
  return (await call('GET /beverages/{id}', { params: { id }, signal })).beverage;
}

/** POST /beverages with multipart form data → the new entry. */
export async function createBeverage(form: FormData): Promise<Beverage> {
  return (await call('POST /beverages', { form, trackUpload: photoOf(form) })).beverage;
}

/** DELETE /beverages/{id}. */
export async function deleteBeverage(id: number): Promise<void> {
  await call('DELETE /beverages/{id}', { params: { id } });
}

/** POST /beverages/{id}/clone → the caller's own copy (the activity feed's 'Add to vault'). */
export async function cloneBeverage(id: number, status?: BeverageStatus): Promise<Beverage> {
  const json = status ? { status } : {};
  return (await call('POST /beverages/{id}/clone', { params: { id }, json })).beverage;
}
