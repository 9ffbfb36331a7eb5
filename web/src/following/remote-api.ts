/**
 * The fediverse follow calls: the '+ Follow' dialog's lookup by handle or address, and the
 * list of fediverse accounts the user follows. Calls are typed from the route table
 * (api/call.ts); the shapes are the contract's (contract/follows.ts), as types only. No React here, so that
 * it can be unit-tested in Node.
 */
import type { LookedUpActor, RemoteFollowingItem } from '../../../contract/follows.ts';
import { call } from '../api/call.ts';

export type { LookedUpActor, RemoteFollowingItem };

export const LOOKUP_FAILED = 'Could not look up that account';

/** What the user is told once the follow is sent (pending until the account accepts). */
export const followRequested = (actor: Pick<LookedUpActor, 'displayName' | 'handle'>) =>
  `Follow request sent to ${actor.displayName || actor.handle}`;

/** POST /users/lookup {query} → the account. */
export async function lookupAccount(query: string, signal?: AbortSignal): Promise<LookedUpActor> {
  return (await call('POST /users/lookup', { json: { query }, signal })).actor;
}

/** GET /users/following → the fediverse accounts followed, with their state. */
export async function fetchRemoteFollowing(signal?: AbortSignal): Promise<RemoteFollowingItem[]> {
  return (await call('GET /users/following', { signal })).remote;
}
