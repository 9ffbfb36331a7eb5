import type Database from 'better-sqlite3';
import type { FollowRow, FollowState } from '../db/schema/index.ts';
import {
  followedPersonOf,
  followerOf,
  followOf,
  recipientOf,
  remoteFollowingOf,
  type FollowedPerson,
  type FollowerRecord,
  type RemoteFollowing,
  type RemoteRecipient,
} from './follow-rows.ts';

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
    `SELECT f.id, f.state, f.created_at, u.id AS user_id, u.username, u.full_name, u.avatar_path
     FROM actors me
     JOIN follows f ON f.follower_id = me.id
     JOIN actors a ON a.id = f.followed_id
     JOIN users u ON u.id = a.user_id
     WHERE me.user_id = ?
     ORDER BY f.created_at DESC, f.id DESC`,
  );
  const followers = sqlite.prepare(
    `SELECT f.created_at, a.id AS actor_id, a.kind, a.uri, a.display_name, a.handle, a.summary, a.avatar_url,
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
      `SELECT a.user_id, f.state FROM actors me
       JOIN follows f ON f.follower_id = me.id
       JOIN actors a ON a.id = f.followed_id
       WHERE me.user_id = ? AND a.user_id IS NOT NULL`,
    )
    .raw();
  const pendingFollowers = sqlite.prepare(
    `SELECT f.* FROM actors me
     JOIN follows f ON f.followed_id = me.id AND f.state = 'PENDING'
     WHERE me.user_id = ?
     ORDER BY f.id`,
  );

  const followerByUri = sqlite.prepare(
    `SELECT 1 FROM actors me
     JOIN follows f ON f.followed_id = me.id
     JOIN actors a ON a.id = f.follower_id
     WHERE me.user_id = ? AND a.uri = ? AND f.state = 'ACCEPTED'`,
  );
  // An accepted follower whose id starts with `{origin}/`: one of that server's actors.
  const followerOnServer = sqlite.prepare(
    `SELECT 1 FROM actors me
     JOIN follows f ON f.followed_id = me.id AND f.state = 'ACCEPTED'
     JOIN actors a ON a.id = f.follower_id
     WHERE me.user_id = @userId AND substr(a.uri, 1, length(@prefix)) = @prefix LIMIT 1`,
  );

  const insertRemote = sqlite.prepare(
    `INSERT INTO follows (follower_id, followed_id, state, activity_uri, created_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (follower_id, followed_id) DO NOTHING RETURNING *`,
  );
  const byActivity = sqlite.prepare('SELECT * FROM follows WHERE activity_uri = ?');
  const setState = sqlite.prepare('UPDATE follows SET state = ? WHERE id = ?');
  const setActivity = sqlite.prepare('UPDATE follows SET activity_uri = ? WHERE id = ?');
  const removeById = sqlite.prepare('DELETE FROM follows WHERE id = ?');
  const removeBy = sqlite.prepare('DELETE FROM follows WHERE follower_id = ?');
  const removeWith = sqlite.prepare('DELETE FROM follows WHERE follower_id = ? OR followed_id = ?');
  const remoteFollowing = sqlite.prepare(
    `SELECT f.id, f.state, f.created_at, a.id AS actor_id, a.uri, a.handle, a.display_name,
            a.summary, a.avatar_url
     FROM actors me
     JOIN follows f ON f.follower_id = me.id
     JOIN actors a ON a.id = f.followed_id AND a.kind = 'remote'
     WHERE me.user_id = ?
     ORDER BY f.created_at DESC, f.id DESC`,
  );
  const recipientColumns = `f.id, a.uri, a.inbox_url, a.shared_inbox_url
     FROM actors me
     JOIN follows f ON f.followed_id = me.id AND f.state = 'ACCEPTED'
     JOIN actors a ON a.id = f.follower_id AND a.kind = 'remote'
     WHERE me.user_id = ?`;
  const recipientsAfter = sqlite.prepare(
    `SELECT ${recipientColumns} AND f.id > ? AND substr(a.uri, 1, ?) = ? ORDER BY f.id LIMIT ?`,
  );
  const recipientCount = sqlite
    .prepare(`SELECT count(*) FROM (SELECT ${recipientColumns})`)
    .pluck();
  const followedColumns = `f.id, a.uri
     FROM actors me
     JOIN follows f ON f.follower_id = me.id AND f.state = 'ACCEPTED'
     JOIN actors a ON a.id = f.followed_id AND a.kind = 'remote'
     WHERE me.user_id = ?`;
  const followedAfter = sqlite.prepare(
    `SELECT ${followedColumns} AND f.id > ? ORDER BY f.id LIMIT ?`,
  );
  const followedCount = sqlite.prepare(`SELECT count(*) FROM (SELECT ${followedColumns})`).pluck();
  const followersOfRemoteInUsers = sqlite
    .prepare(
      `SELECT f.follower_id FROM follows f JOIN actors them ON them.id = f.followed_id
       WHERE them.uri = ? AND f.state = 'ACCEPTED'`,
    )
    .pluck();

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

    /** The local users a local user follows or asked to follow, most recent follow first. */
    following(userId: number): FollowedPerson[] {
      return (following.all(userId) as Record<string, unknown>[]).map(followedPersonOf);
    },

    /** Everyone following a local user, local or remote, most recent first. */
    followers(userId: number): FollowerRecord[] {
      return (followers.all(userId) as Record<string, unknown>[]).map(followerOf);
    },

    /**
     * Whether the remote actor `actorUri` currently follows the local user (an accepted
     * follow): who may dereference the user's followers-only objects.
     */
    isFollower(userId: number, actorUri: string): boolean {
      return followerByUri.get(userId, actorUri) !== undefined;
    },

    /**
     * Whether an actor of the server at `origin` (scheme, host and port, as `URL.origin`)
     * currently follows the local user (an accepted follow): the servers that may dereference
     * the user's followers-only objects with a request signed by any of their actors.
     */
    hasFollowerOn(userId: number, origin: string): boolean {
      return followerOnServer.get({ userId, prefix: `${origin}/` }) !== undefined;
    },

    /**
     * A follow of or by a remote actor, with the id of its Follow activity. Nothing happens if
     * the pair already has a follow (returns undefined): received Follows are idempotent.
     */
    insertRemote(
      followerId: number,
      followedId: number,
      state: FollowState,
      activityUri: string,
      at: number,
    ): FollowRow | undefined {
      const row = insertRemote.get(followerId, followedId, state, activityUri, at);
      return row ? followOf(row as Record<string, unknown>) : undefined;
    },

    /** The follow made by the Follow activity `activityUri`. */
    findByActivityUri(activityUri: string): FollowRow | undefined {
      const row = byActivity.get(activityUri) as Record<string, unknown> | undefined;
      return row ? followOf(row) : undefined;
    },

    setState(followId: number, state: FollowState): void {
      setState.run(state, followId);
    },

    /** A follow received again with another Follow id: later Undo and Accept name the new one. */
    setActivityUri(followId: number, activityUri: string): void {
      setActivity.run(activityUri, followId);
    },

    removeById(followId: number): boolean {
      return removeById.run(followId).changes > 0;
    },

    /** Removes every follow `followerId` has (a follower gone for good); returns how many. */
    removeFollowsBy(followerId: number): number {
      return removeBy.run(followerId).changes;
    },

    /** Removes every follow in which the actor follows or is followed; returns how many. */
    removeFollowsWith(actorId: number): number {
      return removeWith.run(actorId, actorId).changes;
    },

    /** The remote actors a local user follows or asked to follow, most recent first. */
    remoteFollowing(userId: number): RemoteFollowing[] {
      return (remoteFollowing.all(userId) as Record<string, unknown>[]).map(remoteFollowingOf);
    },

    /** Remote followers of a local user in follow order, after the follow `afterId`. */
    remoteFollowers(
      userId: number,
      afterId: number,
      limit: number,
      /** Only followers whose id starts with this (followers synchronisation). */
      prefix = '',
    ): RemoteRecipient[] {
      const rows = recipientsAfter.all(userId, afterId, prefix.length, prefix, limit);
      return (rows as Record<string, unknown>[]).map(recipientOf);
    },

    countRemoteFollowers(userId: number): number {
      return recipientCount.get(userId) as number;
    },

    /** Remote actors a local user follows (accepted), in follow order, after `afterId`. */
    remoteFollowed(
      userId: number,
      afterId: number,
      limit: number,
    ): { followId: number; uri: string }[] {
      return (followedAfter.all(userId, afterId, limit) as Record<string, unknown>[]).map(
        (row) => ({ followId: row.id as number, uri: row.uri as string }),
      );
    },

    countRemoteFollowed(userId: number): number {
      return followedCount.get(userId) as number;
    },

    /** The actor ids following the remote actor `uri` (accepted follows). */
    followerIdsOfRemote(uri: string): number[] {
      return followersOfRemoteInUsers.all(uri) as number[];
    },

    /** The local users a local user follows or asked to follow: user id → follow state. */
    followStatesOfUser(userId: number): Map<number, FollowState> {
      return new Map(followedUsers.all(userId) as [number, FollowState][]);
    },

    /** The follow requests a local user has not answered yet, oldest first. */
    pendingFollowersOf(userId: number): FollowRow[] {
      return (pendingFollowers.all(userId) as Record<string, unknown>[]).map(followOf);
    },
  };
}

export type FollowRepository = ReturnType<typeof createFollowRepository>;
