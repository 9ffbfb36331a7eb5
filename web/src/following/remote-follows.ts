/**
 * Follows of fediverse accounts: the '+ Follow' dialog's lookup by handle or address, the
 * follow itself (pending until the account's server accepts), unfollowing, and removing a
 * fediverse follower. Calls go through `request` (api/client.ts); the shapes are the
 * contract's (contract/follows.ts), as types only.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { LookedUpActor, RemoteFollowingItem } from '../../../contract/follows.ts';
import { ApiError, INVALID_RESPONSE, request } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useNotes } from '../notes/notes.tsx';

export type { LookedUpActor, RemoteFollowingItem };

/** Under queryKeys.following, so that whatever refreshes the following list refreshes it too. */
const remoteFollowingKey = [...queryKeys.following, 'remote'] as const;

export const LOOKUP_FAILED = 'Could not look up that account';
export const REMOTE_UNFOLLOW_FAILED = 'Failed to unfollow account';
export const REMOVE_FOLLOWER_FAILED = 'Failed to remove follower';

function field<T>(data: unknown, name: string, list = false): T {
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

function refresh(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.following });
  void queryClient.invalidateQueries({ queryKey: queryKeys.followers });
  void queryClient.invalidateQueries({ queryKey: queryKeys.activity });
}

export function useRemoteFollowing() {
  return useQuery({
    queryKey: remoteFollowingKey,
    queryFn: ({ signal }) => fetchRemoteFollowing(signal),
  });
}

/** Follows the looked-up account (POST /users/remote-follows). Failures are the caller's. */
export function useFollowAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (actor: Pick<LookedUpActor, 'actorUri'>) => {
      const data = await request('/users/remote-follows', {
        method: 'POST',
        json: { actorUri: actor.actorUri },
      });
      return field<RemoteFollowingItem>(data, 'follow');
    },
    onSuccess: (follow) => {
      queryClient.setQueryData<RemoteFollowingItem[]>(remoteFollowingKey, (current) =>
        current ? [follow, ...current.filter((item) => item.actorId !== follow.actorId)] : current,
      );
      refresh(queryClient);
    },
  });
}

/** Stops following a fediverse account (an Undo goes to its server). */
export function useUnfollowAccount() {
  const queryClient = useQueryClient();
  const { notifyError } = useNotes();
  return useMutation({
    mutationFn: (item: Pick<RemoteFollowingItem, 'actorId'>) =>
      request(`/users/remote-follows/${item.actorId}`, { method: 'DELETE' }),
    onSuccess: (_nothing, item) => {
      queryClient.setQueryData<RemoteFollowingItem[]>(remoteFollowingKey, (current) =>
        current?.filter((entry) => entry.actorId !== item.actorId),
      );
      refresh(queryClient);
    },
    onError: () => notifyError(REMOTE_UNFOLLOW_FAILED),
  });
}

/** Removes a fediverse follower (a Reject goes to its server). */
export function useRemoveFollower() {
  const queryClient = useQueryClient();
  const { notifyError } = useNotes();
  return useMutation({
    mutationFn: (follower: { actorId: number }) =>
      request(`/users/followers/${follower.actorId}`, { method: 'DELETE' }),
    onSuccess: () => refresh(queryClient),
    onError: () => notifyError(REMOVE_FOLLOWER_FAILED),
  });
}
