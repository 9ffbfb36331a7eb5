/**
 * The social calls: user search, follows, followers, the activity feed, cloning an entry into
 * one's own vault and sharing an entry. Every call goes through `request` (client.ts), so the
 * error rules of the API contract apply; the shapes come from contract/ as types only. The
 * activity and share calls are typed from the route table (./call.ts).
 */
import { call } from './call.ts';
import { ApiError, INVALID_RESPONSE, request } from './client.ts';
import { cloneBeverage } from './entries.ts';
import type {
  ActivityPage,
  Beverage,
  Follower,
  FollowingItem,
  ShareBody,
  UserSearchResult,
} from './types.ts';

/** Searching starts at this many characters after trimming (the contract's rule). */
export const USER_SEARCH_MIN_LENGTH = 2;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The named field of an answer, or 'Invalid response from server' when it is not there. */
function listField<T>(data: unknown, name: string): T[] {
  if (!isRecord(data) || !Array.isArray(data[name])) throw new ApiError(INVALID_RESPONSE, 200);
  return data[name] as T[];
}

function objectField<T>(data: unknown, name: string): T {
  if (!isRecord(data) || !isRecord(data[name])) throw new ApiError(INVALID_RESPONSE, 200);
  return data[name] as T;
}

/** GET /users/search?q: local users by username or full name (the caller left out). */
export async function searchUsers(q: string, signal?: AbortSignal): Promise<UserSearchResult[]> {
  const data = await request('/users/search', { query: { q: q.trim() }, signal });
  return listField<UserSearchResult>(data, 'users');
}

/** GET /users/following → field following. */
export async function fetchFollowing(signal?: AbortSignal): Promise<FollowingItem[]> {
  return listField<FollowingItem>(await request('/users/following', { signal }), 'following');
}

/** GET /users/followers → field followers (local users and fediverse accounts). */
export async function fetchFollowers(signal?: AbortSignal): Promise<Follower[]> {
  return listField<Follower>(await request('/users/followers', { signal }), 'followers');
}

/** POST /users/{id}/follow → field follow. */
export async function followUser(userId: number): Promise<FollowingItem> {
  const data = await request(`/users/${userId}/follow`, { method: 'POST', json: {} });
  return objectField<FollowingItem>(data, 'follow');
}

/** DELETE /users/{id}/follow. */
export async function unfollowUser(userId: number): Promise<void> {
  await request(`/users/${userId}/follow`, { method: 'DELETE' });
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
