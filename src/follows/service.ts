import {
  SEARCH_TOO_SHORT,
  USER_SEARCH_MAX_RESULTS,
  USER_SEARCH_MIN_LENGTH,
} from '../../contract/social.ts';
import type { ActorRepository } from '../actors/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, conflict, forbidden, notFound } from '../domain-error.ts';
import type { FeedRepository } from '../feed/repository.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { UserRepository } from '../users/repository.ts';
import type { FollowedPerson, FollowerRecord, PersonSummary } from './follow-rows.ts';
import type { FollowRepository } from './repository.ts';
import type { UserSearch } from './user-search.ts';

export interface FollowViewer {
  id: number;
}

/**
 * The answer to a follow between two users one of whom blocked the other, the same either way:
 * like Mastodon's 403, it does not say who blocked whom.
 */
export const CANNOT_FOLLOW = 'You cannot follow this user.';

/** The blocks between users (src/blocks/), which refuse follows and hide people in searches. */
export interface FollowBlocks {
  isBlockedBetweenUsers(one: number, other: number): Promise<boolean>;
  usersBlockedEitherWay(userId: number): Promise<Set<number>>;
}

/**
 * Following between actors. A local user is followed at once (ACCEPTED), or, when they approve
 * followers, asked (PENDING until they accept, src/follows/requests.ts); the Follow (and the
 * Undo of an unfollow or of a request) is recorded in the outbox in the same transaction as the
 * follow row, and the outbox tells the followed user (a FOLLOW_INVITE, or a FOLLOW_REQUEST, in
 * src/notifications/). Unfollowing also takes the unfollowed actor's items out of the caller's
 * activity feed.
 */
export function createFollowService(deps: {
  repo: FollowRepository;
  search: UserSearch;
  users: UserRepository;
  actors: ActorRepository;
  feed: FeedRepository;
  outbox: Outbox;
  transaction: Transaction;
  /** Follows of remote actors ('Follow back' of a remote follower). */
  remote?: { followBack(viewer: FollowViewer, actorId: number): Promise<void> };
  blocks?: FollowBlocks;
  now?: () => number;
}) {
  const { repo, search, users, actors, feed, outbox, transaction } = deps;
  const now = deps.now ?? Date.now;

  async function targetOf(userId: number) {
    const user = await users.findById(userId);
    if (!user) throw notFound('User not found');
    return user;
  }

  /**
   * Follows a local user, or asks to when they approve followers; the caller is known not to
   * follow them yet (checked here).
   */
  async function follow(viewer: FollowViewer, userId: number): Promise<FollowedPerson> {
    if (userId === viewer.id) throw badRequest("You can't follow yourself.");
    await targetOf(userId);
    // Actor rows are made outside the transaction: their ids are cached once made. Two users
    // blocked either way have theirs already (the blocker's is made when blocking, the blocked
    // one's is the block's), so none is made for a follow the block refuses.
    const followerId = await actors.localActorId(viewer.id);
    const followedId = await actors.localActorId(userId);
    return transaction(async () => {
      // Read in the transaction: whether they approve followers now, and a block made meanwhile.
      const target = await targetOf(userId);
      if (await deps.blocks?.isBlockedBetweenUsers(viewer.id, target.id)) {
        throw forbidden(CANNOT_FOLLOW);
      }
      const existing = await repo.find(followerId, followedId);
      if (existing?.state === 'PENDING') {
        throw conflict(`You already asked to follow ${target.username}.`);
      }
      if (existing) throw conflict(`You already follow ${target.username}.`);
      const at = now();
      const request = target.approveFollowers;
      const row = await repo.insert(followerId, followedId, request ? 'PENDING' : 'ACCEPTED', at);
      await outbox.record({
        actorId: followerId,
        type: 'Follow',
        objectActorId: followedId,
        // A request: its notification is a FOLLOW_REQUEST rather than a FOLLOW_INVITE.
        ...(request && { payload: { request: true } }),
        createdAt: at,
      });
      return {
        followId: row.id,
        state: row.state,
        user: {
          id: target.id,
          username: target.username,
          fullName: target.fullName,
          avatarPath: target.avatarPath,
        },
        followedAt: row.createdAt,
      };
    });
  }

  return {
    /**
     * Local users by username or full name (not the caller, nobody blocked either way), marked
     * when already followed or asked to follow.
     */
    async search(
      viewer: FollowViewer,
      q: string,
    ): Promise<(PersonSummary & { following: boolean; requested: boolean })[]> {
      const query = q.trim();
      if ([...query].length < USER_SEARCH_MIN_LENGTH) throw badRequest(SEARCH_TOO_SHORT);
      const hidden = (await deps.blocks?.usersBlockedEitherWay(viewer.id)) ?? new Set<number>();
      hidden.add(viewer.id);
      const found = await search.search(query, hidden, USER_SEARCH_MAX_RESULTS);
      const states = await repo.followStatesOfUser(viewer.id);
      return found.map((user) => ({
        ...user,
        following: states.get(user.id) === 'ACCEPTED',
        requested: states.get(user.id) === 'PENDING',
      }));
    },

    follow,

    /**
     * Follows (or asks to) unless the caller already does (following back an invitation): the
     * check and the follow in one transaction.
     */
    async followUnlessFollowing(viewer: FollowViewer, userId: number): Promise<void> {
      await transaction(async () => {
        if (userId === viewer.id || (await repo.findBetweenUsers(viewer.id, userId))) return;
        await follow(viewer, userId);
      });
    },

    /** 'Follow back' of a remote actor: follows it unless the caller already does. */
    async followBackRemote(viewer: FollowViewer, actorId: number): Promise<void> {
      if (!deps.remote)
        throw conflict('This account can only be followed from the following page.');
      await deps.remote.followBack(viewer, actorId);
    },

    /** Stops following a local user, or withdraws the request to. */
    async unfollow(viewer: FollowViewer, userId: number): Promise<void> {
      const target = await targetOf(userId);
      await transaction(async () => {
        const existing = await repo.findBetweenUsers(viewer.id, target.id);
        if (!existing) throw notFound(`You are not following ${target.username}.`);
        const { followerId, followedId } = existing;
        await repo.remove(followerId, followedId);
        await feed.removeActor(viewer.id, followedId);
        await outbox.record({
          actorId: followerId,
          type: 'Undo',
          objectActorId: followedId,
          createdAt: now(),
        });
      });
    },

    following(viewer: FollowViewer): Promise<FollowedPerson[]> {
      return repo.following(viewer.id);
    },

    followers(viewer: FollowViewer): Promise<FollowerRecord[]> {
      return repo.followers(viewer.id);
    },

    /** Whether the remote actor `actorUri` currently follows the local user `userId`. */
    isFollower(userId: number, actorUri: string): Promise<boolean> {
      return repo.isFollower(userId, actorUri);
    },
  };
}

export type FollowService = ReturnType<typeof createFollowService>;
