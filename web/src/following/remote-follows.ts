/**
 * Follows of fediverse accounts in TanStack Query: the accounts the user follows, the follow
 * itself (pending until the account's server accepts), unfollowing, and removing a fediverse
 * follower. The plain calls are in remote-api.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { call } from '../api/call.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useNotes } from '../notes/notes.tsx';
import {
  fetchRemoteFollowing,
  type LookedUpActor,
  type RemoteFollowingItem,
} from './remote-api.ts';

export type { LookedUpActor, RemoteFollowingItem };

/** Under queryKeys.following, so that whatever refreshes the following list refreshes it too. */
const remoteFollowingKey = [...queryKeys.following, 'remote'] as const;

export const REMOTE_UNFOLLOW_FAILED = 'Failed to unfollow account';
export const REMOVE_FOLLOWER_FAILED = 'Failed to remove follower';

/** What a change of follows makes stale (Alerts: whether to offer 'Follow back'). */
function refresh(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.following });
  void queryClient.invalidateQueries({ queryKey: queryKeys.followers });
  void queryClient.invalidateQueries({ queryKey: queryKeys.activity });
  void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
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
    mutationFn: async (actor: Pick<LookedUpActor, 'actorUri'>) =>
      (await call('POST /users/remote-follows', { json: { actorUri: actor.actorUri } })).follow,
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
      call('DELETE /users/remote-follows/{actorId}', { params: { actorId: item.actorId } }),
    onSuccess: (_nothing, item) => {
      queryClient.setQueryData<RemoteFollowingItem[]>(remoteFollowingKey, (current) =>
        current?.filter((entry) => entry.actorId !== item.actorId),
      );
      refresh(queryClient);
    },
    onError: () => notifyError(REMOTE_UNFOLLOW_FAILED),
  });
}

/**
 * Removes a follower: a local one at once, a fediverse one with a Reject to its server; a note
 * says so.
 */
export function useRemoveFollower() {
  const queryClient = useQueryClient();
  const { notifySuccess, notifyError } = useNotes();
  return useMutation({
    mutationFn: (follower: { actorId: number; name: string }) =>
      call('DELETE /users/followers/{actorId}', { params: { actorId: follower.actorId } }),
    onSuccess: (_nothing, follower) => {
      notifySuccess(`${follower.name} no longer follows you`);
      refresh(queryClient);
    },
    onError: () => notifyError(REMOVE_FOLLOWER_FAILED),
  });
}
