/**
 * The calls the shell makes, so they are in the first download: who is signed in, signing out,
 * and an entry's status change ('Mark as tried', 'Move to to-try') with the entry update it
 * sends. The other entry calls, made by the screens only, are in ./entries.ts. Every call is
 * typed from the route table (./call.ts).
 */
import { call } from './call.ts';
import { photoOf } from './client.ts';
import type { Beverage, BeverageStatus, User } from './types.ts';

/** GET /auth/me. Rejects with an ApiError of status 401 when nobody is signed in. */
export async function fetchCurrentUser(): Promise<User> {
  return (await call('GET /auth/me')).user;
}

/** POST /auth/logout. */
export async function logout(): Promise<void> {
  await call('POST /auth/logout');
}

/** PATCH /beverages/{id} with any subset of the fields → the changed entry. */
export async function updateBeverage(id: number, form: FormData): Promise<Beverage> {
  const input = { params: { id }, form, trackUpload: photoOf(form) };
  return (await call('PATCH /beverages/{id}', input)).beverage;
}

/** A status-only PATCH: what 'Mark as tried' and 'Move to to-try' send. */
export async function setBeverageStatus(id: number, status: BeverageStatus): Promise<Beverage> {
  const form = new FormData();
  form.set('status', status);
  return updateBeverage(id, form);
}
