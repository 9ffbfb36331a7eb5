/**
 * The follow state of the signed-in user in TanStack Query: whom they follow, who follows them,
 * and the follow / unfollow mutations that keep both (and what depends on them: the search's
 * marks, the activity feed) up to date.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys.ts';
import { fetchFollowers, fetchFollowing, followUser, unfollowUser } from '../api/social.ts';
import type { FollowingItem, UserSummary } from '../api/types.ts';
import { useNotes } from '../notes/notes.tsx';

export const UNFOLLOW_FAILED = 'Failed to unfollow user';
export const FOLLOW_FAILED = 'Failed to follow user';

export function useFollowing() {
  return useQuery({
    queryKey: queryKeys.following,
    queryFn: ({ signal }) => fetchFollowing(signal),
  });
}

export function useFollowers() {
  return useQuery({
    queryKey: queryKeys.followers,
    queryFn: ({ signal }) => fetchFollowers(signal),
  });
}

/** What changes when the user follows or unfollows someone (Alerts: whether to offer 'Follow back'). */
function refreshAfterFollowChange(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.following });
  void queryClient.invalidateQueries({ queryKey: queryKeys.userSearch.all });
  void queryClient.invalidateQueries({ queryKey: queryKeys.activity });
  void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
}

/** Says whom the user now follows. */
export const nowFollowing = (user: Pick<UserSummary, 'fullName' | 'username'>) =>
  `You now follow ${user.fullName || user.username}`;

/** Says whom the user asked to follow (they approve followers). */
export const followRequestSent = (user: Pick<UserSummary, 'fullName' | 'username'>) =>
  `Follow request sent to ${user.fullName || user.username}`;

/**
 * Follows a user (or asks to, when they approve followers); the following list shows them at
 * once and a note says which of the two happened. Failures are the caller's to show.
 */
export function useFollow() {
  const queryClient = useQueryClient();
  const { notifySuccess } = useNotes();
  return useMutation({
    mutationFn: (user: Pick<UserSummary, 'id'>) => followUser(user.id),
    onSuccess: (follow) => {
      notifySuccess(
        follow.state === 'PENDING' ? followRequestSent(follow.user) : nowFollowing(follow.user),
      );
      queryClient.setQueryData<FollowingItem[]>(queryKeys.following, (current) =>
        current ? [follow, ...current.filter((item) => item.user.id !== follow.user.id)] : current,
      );
      refreshAfterFollowChange(queryClient);
    },
  });
}

/**
 * Unfollows a user, or takes back a request; on failure the red banner says 'Failed to
 * unfollow user'.
 */
export function useUnfollow() {
  const queryClient = useQueryClient();
  const { notifyError } = useNotes();
  return useMutation({
    mutationFn: (user: Pick<UserSummary, 'id'>) => unfollowUser(user.id),
    onSuccess: (_nothing, user) => {
      queryClient.setQueryData<FollowingItem[]>(queryKeys.following, (current) =>
        current?.filter((item) => item.user.id !== user.id),
      );
      refreshAfterFollowChange(queryClient);
    },
    onError: () => notifyError(UNFOLLOW_FAILED),
  });
}

/** The ids of the users the signed-in user follows, accepted follows only (empty while loading). */
export function useFollowedIds(): Set<number> {
  const { data } = useFollowing();
  return new Set(
    (data ?? []).filter((item) => item.state === 'ACCEPTED').map((item) => item.user.id),
  );
}

/**
 * The signed-in user's follow of each local user they follow or asked to follow: ACCEPTED, or
 * PENDING while that user has not accepted ('Requested'). Empty while loading.
 */
export function useFollowStates(): Map<number, FollowingItem['state']> {
  const { data } = useFollowing();
  return new Map((data ?? []).map((item) => [item.user.id, item.state]));
}
