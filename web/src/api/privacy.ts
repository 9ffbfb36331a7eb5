/**
 * Who sees an entry: the default for new entries (PATCH /users/me) and changes of many entries
 * at once (PATCH /beverages/visibility). Every call is typed from the route table (./call.ts).
 */
import type { VisibilityChange } from '../../../contract/beverages.ts';
import type { Visibility } from '../../../contract/enums.ts';
import { call } from './call.ts';
import type { User } from './types.ts';

/** PATCH /users/me with only the default visibility → the changed user. */
export async function setDefaultVisibility(visibility: Visibility): Promise<User> {
  const form = new FormData();
  form.set('defaultVisibility', visibility);
  return (await call('PATCH /users/me', { form })).user;
}

/** PATCH /users/me with only 'Approve followers' → the changed user. */
export async function setApproveFollowers(enabled: boolean): Promise<User> {
  const form = new FormData();
  form.set('approveFollowers', String(enabled));
  return (await call('PATCH /users/me', { form })).user;
}

/** PATCH /beverages/visibility → how many entries changed. */
export async function changeVisibility(change: VisibilityChange): Promise<number> {
  return (await call('PATCH /beverages/visibility', { json: change })).updated;
}

/** PATCH /beverages/visibility for the entries picked on a screen → how many changed. */
export function changeVisibilityOf(
  ids: number[],
  setting: { visibility: Visibility; federated?: boolean },
): Promise<number> {
  return changeVisibility({ ...setting, ids });
}
