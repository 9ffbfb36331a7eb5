import type Database from 'better-sqlite3';
import type { ActorKind, FollowRow, FollowState } from '../db/schema/index.ts';

/** A local user as lists of people show them. */
export interface PersonSummary {
  id: number;
  username: string;
  fullName: string;
  avatarPath: string | null;
}

/** One of the people an actor follows (local users; remote accounts come with federation). */
export interface FollowedPerson {
  followId: number;
  user: PersonSummary;
  followedAt: Date;
}

/** Someone who follows an actor: a local user's row (`user` set) or a remote actor's. */
export interface FollowerRecord {
  kind: ActorKind;
  user: PersonSummary | null;
  displayName: string;
  uri: string | null;
  handle: string | null;
  summary: string;
  avatarUrl: string | null;
  followedAt: Date;
}

function followOf(row: Record<string, unknown>): FollowRow {
  return {
    id: row.id as number,
    followerId: row.follower_id as number,
    followedId: row.followed_id as number,
    state: row.state as FollowState,
    activityUri: row.activity_uri as string | null,
    createdAt: new Date(row.created_at as number),
  };
}

/**
 * Data access for follows: the only place that writes `follows`. Its lists read the actors and
 * local users they name in the same statement (one query per list, whatever its length).
 */
export function createFollowRepository(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    `INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, ?, ?)
     RETURNING *`,
  );
  const find = sqlite.prepare('SELECT * FROM follows WHERE follower_id = ? AND followed_id = ?');
  const remove = sqlite.prepare('DELETE FROM follows WHERE follower_id = ? AND followed_id = ?');
  // Lists and lookups by local user id, through the user's actor row: reading never makes one.
  const between = sqlite.prepare(
    `SELECT f.* FROM actors me
     JOIN follows f ON f.follower_id = me.id
     JOIN actors them ON them.id = f.followed_id
     WHERE me.user_id = ? AND them.user_id = ?`,
  );
  const following = sqlite.prepare(
    `SELECT f.id, f.created_at, u.id AS user_id, u.username, u.full_name, u.avatar_path
     FROM actors me
     JOIN follows f ON f.follower_id = me.id
     JOIN actors a ON a.id = f.followed_id
     JOIN users u ON u.id = a.user_id
     WHERE me.user_id = ? AND f.state = 'ACCEPTED'
     ORDER BY f.created_at DESC, f.id DESC`,
  );
  const followers = sqlite.prepare(
    `SELECT f.created_at, a.kind, a.uri, a.display_name, a.handle, a.summary, a.avatar_url,
            u.id AS user_id, u.username, u.full_name, u.avatar_path
     FROM actors me
     JOIN follows f ON f.followed_id = me.id
     JOIN actors a ON a.id = f.follower_id
     LEFT JOIN users u ON u.id = a.user_id
     WHERE me.user_id = ? AND f.state = 'ACCEPTED'
     ORDER BY f.created_at DESC, f.id DESC`,
  );
  const followedUsers = sqlite
    .prepare(
      `SELECT a.user_id FROM actors me
       JOIN follows f ON f.follower_id = me.id
       JOIN actors a ON a.id = f.followed_id
       WHERE me.user_id = ? AND f.state = 'ACCEPTED' AND a.user_id IS NOT NULL`,
    )
    .pluck();

  const followerByUri = sqlite.prepare(
    `SELECT 1 FROM actors me
     JOIN follows f ON f.followed_id = me.id
     JOIN actors a ON a.id = f.follower_id
     WHERE me.user_id = ? AND a.uri = ? AND f.state = 'ACCEPTED'`,
  );

  const personOf = (row: Record<string, unknown>): PersonSummary => ({
    id: row.user_id as number,
    username: row.username as string,
    fullName: row.full_name as string,
    avatarPath: row.avatar_path as string | null,
  });

  return {
    insert(followerId: number, followedId: number, state: FollowState, at: number): FollowRow {
      return followOf(insert.get(followerId, followedId, state, at) as Record<string, unknown>);
    },

    find(followerId: number, followedId: number): FollowRow | undefined {
      const row = find.get(followerId, followedId) as Record<string, unknown> | undefined;
      return row ? followOf(row) : undefined;
    },

    /** The follow of one local user by another, if any. */
    findBetweenUsers(followerUserId: number, followedUserId: number): FollowRow | undefined {
      const row = between.get(followerUserId, followedUserId) as
        Record<string, unknown> | undefined;
      return row ? followOf(row) : undefined;
    },

    remove(followerId: number, followedId: number): boolean {
      return remove.run(followerId, followedId).changes > 0;
    },

    /** The local users a local user follows, most recent follow first. */
    following(userId: number): FollowedPerson[] {
      return (following.all(userId) as Record<string, unknown>[]).map((row) => ({
        followId: row.id as number,
        user: personOf(row),
        followedAt: new Date(row.created_at as number),
      }));
    },

    /** Everyone following a local user, local or remote, most recent first. */
    followers(userId: number): FollowerRecord[] {
      return (followers.all(userId) as Record<string, unknown>[]).map((row) => ({
        kind: row.kind as ActorKind,
        user: row.user_id === null ? null : personOf(row),
        displayName: row.display_name as string,
        uri: row.uri as string | null,
        handle: row.handle as string | null,
        summary: row.summary as string,
        avatarUrl: row.avatar_url as string | null,
        followedAt: new Date(row.created_at as number),
      }));
    },

    /**
     * Whether the remote actor `actorUri` currently follows the local user (an accepted
     * follow): who may dereference the user's followers-only objects.
     */
    isFollower(userId: number, actorUri: string): boolean {
      return followerByUri.get(userId, actorUri) !== undefined;
    },

    /** The ids of the local users a local user follows. */
    followedUserIds(userId: number): Set<number> {
      return new Set(followedUsers.all(userId) as number[]);
    },
  };
}

export type FollowRepository = ReturnType<typeof createFollowRepository>;
