/**
 * The social calls: user search, public profiles, follows, followers, the activity feed, cloning an entry into
 * one's own vault and sharing an entry. Every call is typed from the route table (./call.ts)
 * and goes through `request` (client.ts), so the error rules of the API contract apply.
 */
import { call } from './call.ts';
import { cloneBeverage } from './entries.ts';
import type {
  ActivityPage,
  Beverage,
  Follower,
  FollowingItem,
  PublicProfile,
  ShareBody,
  UserSearchResult,
} from './types.ts';

/** Searching starts at this many characters after trimming (the contract's rule). */
export const USER_SEARCH_MIN_LENGTH = 2;

/** GET /users/search?q: local users by username or full name (the caller left out). */
export async function searchUsers(q: string, signal?: AbortSignal): Promise<UserSearchResult[]> {
  return (await call('GET /users/search', { query: { q: q.trim() }, signal })).users;
}

/** GET /users/profiles/{username} → a public profile. */
export async function fetchProfile(username: string): Promise<PublicProfile> {
  return (await call('GET /users/profiles/{username}', { params: { username } })).user;
}

/** GET /users/following → the local users followed (fediverse accounts: remote-api.ts). */
export async function fetchFollowing(signal?: AbortSignal): Promise<FollowingItem[]> {
  return (await call('GET /users/following', { signal })).following;
}

/** GET /users/followers → local users and fediverse accounts. */
export async function fetchFollowers(signal?: AbortSignal): Promise<Follower[]> {
  return (await call('GET /users/followers', { signal })).followers;
}

/** POST /users/{id}/follow → the follow (PENDING when they approve followers). */
export async function followUser(userId: number): Promise<FollowingItem> {
  return (await call('POST /users/{id}/follow', { params: { id: userId } })).follow;
}

/** DELETE /users/{id}/follow. */
export async function unfollowUser(userId: number): Promise<void> {
  await call('DELETE /users/{id}/follow', { params: { id: userId } });
}

/** GET /activity?cursor&limit: one page of the feed, newest first. */
export function fetchActivity(
  options: { cursor?: string; limit?: number; signal?: AbortSignal } = {},
): Promise<ActivityPage> {
  const { cursor, limit, signal } = options;
  return call('GET /activity', { query: { cursor, limit }, signal });
}

/** POST /beverages/{id}/clone: the activity feed's 'Add to vault' (a to-try copy by default). */
export { cloneBeverage };

/** POST /beverages/{id}/share {userId, message?} → the entry with its updated sharedWith. */
export async function shareBeverage(beverageId: number, body: ShareBody): Promise<Beverage> {
  const message = body.message?.trim();
  const json: ShareBody = message ? { userId: body.userId, message } : { userId: body.userId };
  return (await call('POST /beverages/{id}/share', { params: { id: beverageId }, json })).beverage;
}

/** DELETE /beverages/{id}/share/{shareId}. */
export async function removeShare(beverageId: number, shareId: number): Promise<void> {
  await call('DELETE /beverages/{id}/share/{shareId}', { params: { id: beverageId, shareId } });
}
