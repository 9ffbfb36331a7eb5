import type { Database } from '../src/db/database.ts';
import { createFollowRepository, type FollowRepository } from '../src/follows/repository.ts';

/**
 * Who receives a user's entries: their accepted remote followers (the follows module). The
 * Note's dereference check, the outbox's pages and the decision to deliver at all ask it;
 * Fedify's fan-out itself reads the followers collection (follow-collections.ts), which lists
 * the same followers.
 */
export interface EntryAudience {
  /** Whether the actor currently follows the user (an accepted remote follow). */
  isFollower(userId: number, actorUri: string): Promise<boolean>;
  /**
   * Whether an actor of the server at `origin` currently follows the user: that server may
   * fetch the user's Notes, signed by any of its actors (its instance actor included).
   */
  hasFollowerOn(userId: number, origin: string): Promise<boolean>;
  /** Whether the user has any accepted remote follower (else nothing is sent). */
  hasRemoteFollowers(userId: number): Promise<boolean>;
}

export function entryAudienceOf(
  follows: Pick<FollowRepository, 'isFollower' | 'hasFollowerOn' | 'countRemoteFollowers'>,
): EntryAudience {
  return {
    isFollower: (userId, actorUri) => follows.isFollower(userId, actorUri),
    hasFollowerOn: (userId, origin) => follows.hasFollowerOn(userId, origin),
    hasRemoteFollowers: async (userId) => (await follows.countRemoteFollowers(userId)) > 0,
  };
}

/** The audience read from the app's database. */
export function createEntryAudience(db: Database): EntryAudience {
  return entryAudienceOf(createFollowRepository(db));
}
