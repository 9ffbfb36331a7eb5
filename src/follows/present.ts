import type { Follower, FollowingItem } from '../../contract/social.ts';
import type { FollowedPerson, FollowerRecord } from './repository.ts';

export function presentFollowing(item: FollowedPerson): FollowingItem {
  return { followId: item.followId, user: item.user, followedAt: item.followedAt.toISOString() };
}

/** A local user's follow, or a fediverse account's (displayName, actor URI, handle…). */
export function presentFollower(record: FollowerRecord): Follower {
  const followedAt = record.followedAt.toISOString();
  if (record.kind === 'local' && record.user) {
    return { kind: 'local', user: record.user, followedAt };
  }
  return {
    kind: 'federated',
    displayName: record.displayName || record.handle || record.uri || '',
    actorUri: record.uri ?? '',
    handle: record.handle,
    summary: record.summary,
    avatarUrl: record.avatarUrl,
    followedAt,
  };
}
