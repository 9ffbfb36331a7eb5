import type { Database } from '../db/database.ts';
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

type Row = Record<string, unknown>;

/**
 * Data access for follows: the only place that writes `follows`. Its lists read the actors and
 * local users they name in the same statement (one query per list, whatever its length).
 */
export function createFollowRepository(db: Database) {
  const insert = db.prepare<Row>(
    `INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, ?, ?)
     RETURNING *`,
  );
  const find = db.prepare<Row>('SELECT * FROM follows WHERE follower_id = ? AND followed_id = ?');
  const remove = db.prepare('DELETE FROM follows WHERE follower_id = ? AND followed_id = ?');
  // Lists and lookups by local user id, through the user's actor row: reading never makes one.
  const between = db.prepare<Row>(
    `SELECT f.* FROM actors me
     JOIN follows f ON f.follower_id = me.id
     JOIN actors them ON them.id = f.followed_id
     WHERE me.user_id = ? AND them.user_id = ?`,
  );
  const following = db.prepare<Row>(
    `SELECT f.id, f.state, f.created_at, u.id AS user_id, u.username, u.full_name, u.avatar_path
     FROM actors me
     JOIN follows f ON f.follower_id = me.id
     JOIN actors a ON a.id = f.followed_id
     JOIN users u ON u.id = a.user_id
     WHERE me.user_id = ?
     ORDER BY f.created_at DESC, f.id DESC`,
  );
  const followers = db.prepare<Row>(
    `SELECT f.created_at, a.id AS actor_id, a.kind, a.uri, a.display_name, a.handle, a.summary, a.avatar_url,
            u.id AS user_id, u.username, u.full_name, u.avatar_path
     FROM actors me
     JOIN follows f ON f.followed_id = me.id
     JOIN actors a ON a.id = f.follower_id
     LEFT JOIN users u ON u.id = a.user_id
     WHERE me.user_id = ? AND f.state = 'ACCEPTED'
     ORDER BY f.created_at DESC, f.id DESC`,
  );
  const followedUsers = db.prepare<{ user_id: number; state: FollowState }>(
    `SELECT a.user_id, f.state FROM actors me
     JOIN follows f ON f.follower_id = me.id
     JOIN actors a ON a.id = f.followed_id
     WHERE me.user_id = ? AND a.user_id IS NOT NULL`,
  );
  const pendingFollowers = db.prepare<Row>(
    `SELECT f.* FROM actors me
     JOIN follows f ON f.followed_id = me.id AND f.state = 'PENDING'
     WHERE me.user_id = ?
     ORDER BY f.id`,
  );

  const followerByUri = db.prepare(
    `SELECT 1 FROM actors me
     JOIN follows f ON f.followed_id = me.id
     JOIN actors a ON a.id = f.follower_id
     WHERE me.user_id = ? AND a.uri = ? AND f.state = 'ACCEPTED'`,
  );
  // An accepted follower whose id starts with `{origin}/`: one of that server's actors.
  const followerOnServer = db.prepare(
    `SELECT 1 FROM actors me
     JOIN follows f ON f.followed_id = me.id AND f.state = 'ACCEPTED'
     JOIN actors a ON a.id = f.follower_id
     WHERE me.user_id = @userId AND substr(a.uri, 1, length(@prefix)) = @prefix LIMIT 1`,
  );

  const insertRemote = db.prepare<Row>(
    `INSERT INTO follows (follower_id, followed_id, state, activity_uri, created_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT (follower_id, followed_id) DO NOTHING RETURNING *`,
  );
  const byActivity = db.prepare<Row>('SELECT * FROM follows WHERE activity_uri = ?');
  const setState = db.prepare('UPDATE follows SET state = ? WHERE id = ?');
  const setActivity = db.prepare('UPDATE follows SET activity_uri = ? WHERE id = ?');
  const removeById = db.prepare('DELETE FROM follows WHERE id = ?');
  const removeBy = db.prepare('DELETE FROM follows WHERE follower_id = ?');
  const removeWith = db.prepare('DELETE FROM follows WHERE follower_id = ? OR followed_id = ?');
  const remoteFollowing = db.prepare<Row>(
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
  const recipientsAfter = db.prepare<Row>(
    `SELECT ${recipientColumns} AND f.id > ? AND substr(a.uri, 1, ?) = ? ORDER BY f.id LIMIT ?`,
  );
  const recipientCount = db
    .prepare(`SELECT count(*) FROM (SELECT ${recipientColumns}) r`)
    .pluck<number>();
  const followedColumns = `f.id, a.uri
     FROM actors me
     JOIN follows f ON f.follower_id = me.id AND f.state = 'ACCEPTED'
     JOIN actors a ON a.id = f.followed_id AND a.kind = 'remote'
     WHERE me.user_id = ?`;
  const followedAfter = db.prepare<{ id: number; uri: string }>(
    `SELECT ${followedColumns} AND f.id > ? ORDER BY f.id LIMIT ?`,
  );
  const followedCount = db
    .prepare(`SELECT count(*) FROM (SELECT ${followedColumns}) r`)
    .pluck<number>();
  const followersOfRemoteInUsers = db
    .prepare(
      `SELECT f.follower_id FROM follows f JOIN actors them ON them.id = f.followed_id
       WHERE them.uri = ? AND f.state = 'ACCEPTED'`,
    )
    .pluck<number>();

  return {
    async insert(
      followerId: number,
      followedId: number,
      state: FollowState,
      at: number,
    ): Promise<FollowRow> {
      return followOf((await insert.get(followerId, followedId, state, at))!);
    },

    async find(followerId: number, followedId: number): Promise<FollowRow | undefined> {
      const row = await find.get(followerId, followedId);
      return row ? followOf(row) : undefined;
    },

    /** The follow of one local user by another, if any. */
    async findBetweenUsers(
      followerUserId: number,
      followedUserId: number,
    ): Promise<FollowRow | undefined> {
      const row = await between.get(followerUserId, followedUserId);
      return row ? followOf(row) : undefined;
    },

    async remove(followerId: number, followedId: number): Promise<boolean> {
      return (await remove.run(followerId, followedId)).changes > 0;
    },

    /** The local users a local user follows or asked to follow, most recent follow first. */
    async following(userId: number): Promise<FollowedPerson[]> {
      return (await following.all(userId)).map(followedPersonOf);
    },

    /** Everyone following a local user, local or remote, most recent first. */
    async followers(userId: number): Promise<FollowerRecord[]> {
      return (await followers.all(userId)).map(followerOf);
    },

    /**
     * Whether the remote actor `actorUri` currently follows the local user (an accepted
     * follow): who may dereference the user's followers-only objects.
     */
    async isFollower(userId: number, actorUri: string): Promise<boolean> {
      return (await followerByUri.get(userId, actorUri)) !== undefined;
    },

    /**
     * Whether an actor of the server at `origin` (scheme, host and port, as `URL.origin`)
     * currently follows the local user (an accepted follow): the servers that may dereference
     * the user's followers-only objects with a request signed by any of their actors.
     */
    async hasFollowerOn(userId: number, origin: string): Promise<boolean> {
      return (await followerOnServer.get({ userId, prefix: `${origin}/` })) !== undefined;
    },

    /**
     * A follow of or by a remote actor, with the id of its Follow activity. Nothing happens if
     * the pair already has a follow (returns undefined): received Follows are idempotent.
     */
    async insertRemote(
      followerId: number,
      followedId: number,
      state: FollowState,
      activityUri: string,
      at: number,
    ): Promise<FollowRow | undefined> {
      const row = await insertRemote.get(followerId, followedId, state, activityUri, at);
      return row ? followOf(row) : undefined;
    },

    /** The follow made by the Follow activity `activityUri`. */
    async findByActivityUri(activityUri: string): Promise<FollowRow | undefined> {
      const row = await byActivity.get(activityUri);
      return row ? followOf(row) : undefined;
    },

    async setState(followId: number, state: FollowState): Promise<void> {
      await setState.run(state, followId);
    },

    /** A follow received again with another Follow id: later Undo and Accept name the new one. */
    async setActivityUri(followId: number, activityUri: string): Promise<void> {
      await setActivity.run(activityUri, followId);
    },

    async removeById(followId: number): Promise<boolean> {
      return (await removeById.run(followId)).changes > 0;
    },

    /** Removes every follow `followerId` has (a follower gone for good); returns how many. */
    async removeFollowsBy(followerId: number): Promise<number> {
      return (await removeBy.run(followerId)).changes;
    },

    /** Removes every follow in which the actor follows or is followed; returns how many. */
    async removeFollowsWith(actorId: number): Promise<number> {
      return (await removeWith.run(actorId, actorId)).changes;
    },

    /** The remote actors a local user follows or asked to follow, most recent first. */
    async remoteFollowing(userId: number): Promise<RemoteFollowing[]> {
      return (await remoteFollowing.all(userId)).map(remoteFollowingOf);
    },

    /** Remote followers of a local user in follow order, after the follow `afterId`. */
    async remoteFollowers(
      userId: number,
      afterId: number,
      limit: number,
      /** Only followers whose id starts with this (followers synchronisation). */
      prefix = '',
    ): Promise<RemoteRecipient[]> {
      const rows = await recipientsAfter.all(userId, afterId, prefix.length, prefix, limit);
      return rows.map(recipientOf);
    },

    async countRemoteFollowers(userId: number): Promise<number> {
      return (await recipientCount.get(userId))!;
    },

    /** Remote actors a local user follows (accepted), in follow order, after `afterId`. */
    async remoteFollowed(
      userId: number,
      afterId: number,
      limit: number,
    ): Promise<{ followId: number; uri: string }[]> {
      return (await followedAfter.all(userId, afterId, limit)).map((row) => ({
        followId: row.id,
        uri: row.uri,
      }));
    },

    async countRemoteFollowed(userId: number): Promise<number> {
      return (await followedCount.get(userId))!;
    },

    /** The actor ids following the remote actor `uri` (accepted follows). */
    async followerIdsOfRemote(uri: string): Promise<number[]> {
      return followersOfRemoteInUsers.all(uri);
    },

    /** The local users a local user follows or asked to follow: user id → follow state. */
    async followStatesOfUser(userId: number): Promise<Map<number, FollowState>> {
      const rows = await followedUsers.all(userId);
      return new Map(rows.map((row) => [row.user_id, row.state]));
    },

    /** The follow requests a local user has not answered yet, oldest first. */
    async pendingFollowersOf(userId: number): Promise<FollowRow[]> {
      return (await pendingFollowers.all(userId)).map(followOf);
    },
  };
}

export type FollowRepository = ReturnType<typeof createFollowRepository>;
