import type { LookedUpActor, RemoteFollowingItem } from '../../contract/follows.ts';
import type { Follower, FollowingItem } from '../../contract/social.ts';
import type { RemoteActorData } from '../actors/repository.ts';
import type { FollowedPerson, FollowerRecord, RemoteFollowing } from './follow-rows.ts';

export function presentFollowing(item: FollowedPerson): FollowingItem {
  return {
    followId: item.followId,
    user: item.user,
    state: item.state,
    followedAt: item.followedAt.toISOString(),
  };
}

/** A local user's follow, or a fediverse account's (displayName, actor URI, handle…). */
export function presentFollower(record: FollowerRecord): Follower {
  const followedAt = record.followedAt.toISOString();
  if (record.kind === 'local' && record.user) {
    return { kind: 'local', actorId: record.actorId, user: record.user, followedAt };
  }
  return {
    kind: 'federated',
    actorId: record.actorId,
    displayName: record.displayName || record.handle || record.uri || '',
    actorUri: record.uri ?? '',
    handle: record.handle,
    summary: record.summary,
    avatarUrl: record.avatarUrl,
    followedAt,
  };
}

/** A followed fediverse account; `vault`: whether its server is a vault (null: not known). */
export function presentRemoteFollowing(
  item: RemoteFollowing,
  vault: boolean | null,
): RemoteFollowingItem {
  return {
    followId: item.followId,
    actorId: item.actorId,
    actorUri: item.uri,
    handle: item.handle,
    displayName: item.displayName || item.handle || item.uri,
    summary: item.summary,
    avatarUrl: item.avatarUrl,
    state: item.state,
    followedAt: item.followedAt.toISOString(),
    vault,
  };
}

/** A looked-up fediverse account, with the caller's follow of it. */
export function presentRemoteActor(
  actor: RemoteActorData,
  follow: RemoteFollowing | undefined,
  vault: boolean | null,
): LookedUpActor {
  return {
    actorUri: actor.uri,
    handle: actor.handle,
    displayName: actor.displayName || actor.handle,
    summary: actor.summary,
    avatarUrl: actor.avatarUrl,
    followState: follow?.state ?? 'NONE',
    vault,
  };
}
