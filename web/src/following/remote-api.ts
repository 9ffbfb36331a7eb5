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

/**
 * What the follow dialog says of an account whose server is not a vault: the activity feed
 * shows what people log in a vault, so only what that account sends to the user arrives.
 */
export const NOT_A_VAULT =
  'Its posts will not show in your activity: the vault shows what it logs. Its replies, cheers and mentions of you will.';

/** The same, short, on that account's row of the Following list. */
export const NOT_A_VAULT_ROW = 'Not a vault: only its replies, cheers and mentions reach you.';

/** POST /users/lookup {query} → the account. */
export async function lookupAccount(query: string, signal?: AbortSignal): Promise<LookedUpActor> {
  return (await call('POST /users/lookup', { json: { query }, signal })).actor;
}

/** GET /users/following → the fediverse accounts followed, with their state. */
export async function fetchRemoteFollowing(signal?: AbortSignal): Promise<RemoteFollowingItem[]> {
  return (await call('GET /users/following', { signal })).remote;
}
