import type { ActorRepository } from '../actors/repository.ts';
import type { FollowRow } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { notFound } from '../domain-error.ts';
import type { FeedRepository } from '../feed/repository.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { FollowRepository } from './repository.ts';

export interface FollowRequestViewer {
  id: number;
}

/**
 * Follow requests to a user who approves followers, and removing followers. A request is a
 * PENDING follow: accepting makes it ACCEPTED, declining deletes it, and a remote follower's
 * server learns either way through the outbox (an Accept(Follow) or a Reject(Follow) row, sent
 * by federation/follow-handoff.ts once it commits). Until it is accepted the follow counts for
 * nothing: the visibility policy, the feed's fan-out, the follower lists and the remote
 * followers an entry is delivered to all read ACCEPTED follows only.
 */
export function createFollowRequests(deps: {
  repo: FollowRepository;
  actors: ActorRepository;
  feed: FeedRepository;
  outbox: Outbox;
  transaction: Transaction;
  /** A remote follower removed: a Reject(Follow) tells its server (src/follows/remote.ts). */
  remote: { removeFollower(viewer: FollowRequestViewer, actorId: number): Promise<void> };
  /** The user's unanswered FOLLOW_REQUEST notifications are marked accepted. */
  acceptedAll: (userId: number, at: number) => Promise<void>;
  now?: () => number;
}) {
  const { repo, actors, feed, outbox, transaction, remote } = deps;
  const now = deps.now ?? Date.now;

  /** Records the answer a remote follower's server gets for its Follow, if it is remote. */
  async function answer(follow: FollowRow, type: 'Accept' | 'Reject'): Promise<void> {
    if ((await actors.userIdOf(follow.followerId)) !== null || !follow.activityUri) return;
    await outbox.record({
      actorId: follow.followedId,
      type,
      objectActorId: follow.followerId,
      payload: { follow: follow.activityUri },
      createdAt: now(),
    });
  }

  async function followFrom(viewer: FollowRequestViewer, followerActorId: number) {
    const me = await actors.existingLocalActorId(viewer.id);
    return me === undefined ? undefined : repo.find(followerActorId, me);
  }

  return {
    /**
     * Accepts the request of `followerActorId`; false when there is none any more (withdrawn).
     * One accepted already (the user stopped approving followers meanwhile) stays so.
     */
    accept(viewer: FollowRequestViewer, followerActorId: number): Promise<boolean> {
      return transaction(async () => {
        const follow = await followFrom(viewer, followerActorId);
        if (!follow) return false;
        if (follow.state === 'PENDING') {
          await repo.setState(follow.id, 'ACCEPTED');
          await answer(follow, 'Accept');
        }
        return true;
      });
    },

    /** Declines (deletes) the request of `followerActorId`, if it is still pending. */
    async decline(viewer: FollowRequestViewer, followerActorId: number): Promise<void> {
      await transaction(async () => {
        const follow = await followFrom(viewer, followerActorId);
        if (follow?.state !== 'PENDING') return;
        await repo.removeById(follow.id);
        await answer(follow, 'Reject');
      });
    },

    /**
     * Accepts every pending request of the user (they stopped approving followers, as Mastodon
     * does when an account is unlocked); returns how many.
     */
    acceptAll(userId: number): Promise<number> {
      return transaction(async () => {
        const pending = await repo.pendingFollowersOf(userId);
        for (const follow of pending) {
          await repo.setState(follow.id, 'ACCEPTED');
          await answer(follow, 'Accept');
        }
        await deps.acceptedAll(userId, now());
        return pending.length;
      });
    },

    /**
     * Removes a follower of the caller (or a request): a local user stops seeing the caller's
     * followers-only entries at once and loses them from their feed; a remote one gets a
     * Reject(Follow).
     */
    async removeFollower(viewer: FollowRequestViewer, actorId: number): Promise<void> {
      const followerUserId = await actors.userIdOf(actorId);
      if (followerUserId === null) {
        await remote.removeFollower(viewer, actorId);
        return;
      }
      const me = await actors.existingLocalActorId(viewer.id);
      await transaction(async () => {
        const existing = me === undefined ? undefined : await repo.find(actorId, me);
        if (!existing) throw notFound('This account does not follow you.');
        await repo.removeById(existing.id);
        await feed.removeActor(followerUserId, existing.followedId);
      });
    },
  };
}

export type FollowRequests = ReturnType<typeof createFollowRequests>;
