/**
 * The fediverse follow calls: the '+ Follow' dialog's lookup by handle or address, and the
 * list of fediverse accounts the user follows. Calls go through `request` (api/client.ts);
 * the shapes are the contract's (contract/follows.ts), as types only. No React here, so that
 * it can be unit-tested in Node.
 */
import type { LookedUpActor, RemoteFollowingItem } from '../../../contract/follows.ts';
import { ApiError, INVALID_RESPONSE, request } from '../api/client.ts';

export type { LookedUpActor, RemoteFollowingItem };

export const LOOKUP_FAILED = 'Could not look up that account';

/** What the user is told once the follow is sent (pending until the account accepts). */
export const followRequested = (actor: Pick<LookedUpActor, 'displayName' | 'handle'>) =>
  `Follow request sent to ${actor.displayName || actor.handle}`;

export function field<T>(data: unknown, name: string, list = false): T {
  const value = (data as Record<string, unknown> | null)?.[name];
  const ok = list ? Array.isArray(value) : typeof value === 'object' && value !== null;
  if (!ok) throw new ApiError(INVALID_RESPONSE, 200);
  return value as T;
}

/** POST /users/lookup {query} → field actor. */
export async function lookupAccount(query: string, signal?: AbortSignal): Promise<LookedUpActor> {
  const data = await request('/users/lookup', { method: 'POST', json: { query }, signal });
  return field<LookedUpActor>(data, 'actor');
}

/** GET /users/following → field remote (fediverse accounts, with their state). */
export async function fetchRemoteFollowing(signal?: AbortSignal): Promise<RemoteFollowingItem[]> {
  return field<RemoteFollowingItem[]>(
    await request('/users/following', { signal }),
    'remote',
    true,
  );
}
