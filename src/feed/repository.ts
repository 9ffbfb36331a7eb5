import type { Database } from '../db/database.ts';
import type { ActivityRow } from '../db/schema/index.ts';

/** A position in the feed's newest-first order. */
export interface FeedPosition {
  createdAt: number;
  activityId: number;
}

/** One row of a feed page, with the names of the actor who logged the entry. */
export interface FeedRow extends FeedPosition {
  actorId: number;
  /** The local entry, or null for an entry received from a remote vault. */
  beverageId: number | null;
  /** The remote entry (src/remote-entries/), or null for a local one. */
  remoteEntryId: number | null;
  /** A tasting of the local entry `beverageId`, or null for the entry itself. */
  tastingId: number | null;
  /** A local user's full name, or a remote actor's display name. */
  actorName: string;
  /** A local user's username, or a remote actor's handle. */
  actorUsername: string;
}

/**
 * Data access for the activity feed: the only place that queries `feed_items`. Fan-out is one
 * INSERT … SELECT over the author's accepted local followers; a page is one range of the
 * (recipient, created_at, activity_id) index, the actor's names read by id for that page only.
 */
/**
 * Followers reached in one transaction of a fan-out: about a millisecond and a half of work, so
 * an author with thousands of followers never holds the server (and other requests) for long.
 */
export const FAN_OUT_CHUNK = 250;

export function createFeedRepository(db: Database) {
  // Followers in order of their actor id, FAN_OUT_CHUNK at a time (follows_followed_idx). The
  // values selected are cast: PostgreSQL cannot tell a selected parameter's type.
  const fanOut = db.prepare(
    `INSERT INTO feed_items (recipient_id, activity_id, actor_id, beverage_id, tasting_id, created_at)
     SELECT a.user_id, CAST(@activityId AS bigint), CAST(@actorId AS bigint),
            CAST(@beverageId AS bigint), CAST(@tastingId AS bigint), CAST(@createdAt AS bigint)
     FROM (SELECT follower_id FROM follows
           WHERE followed_id = @actorId AND state = 'ACCEPTED' AND follower_id > @after
           ORDER BY follower_id LIMIT ${FAN_OUT_CHUNK}) f
     JOIN actors a ON a.id = f.follower_id
     WHERE a.user_id IS NOT NULL
       AND (@tastingId IS NULL OR EXISTS (SELECT 1 FROM tastings WHERE id = @tastingId))
     ON CONFLICT DO NOTHING`,
  );
  const lastOfChunk = db
    .prepare(
      `SELECT follower_id FROM follows
       WHERE followed_id = ? AND state = 'ACCEPTED' AND follower_id > ?
       ORDER BY follower_id LIMIT 1 OFFSET ${FAN_OUT_CHUNK - 1}`,
    )
    .pluck<number>();
  const anyAfter = db
    .prepare(
      `SELECT 1 FROM follows WHERE followed_id = ? AND state = 'ACCEPTED' AND follower_id > ? LIMIT 1`,
    )
    .pluck<number>();
  // A received remote entry reaches its actor's local followers at once (there are few), but
  // none who blocked the actor (src/blocks/).
  const fanOutRemote = db.prepare(
    `INSERT INTO feed_items (recipient_id, activity_id, actor_id, remote_entry_id, created_at)
     SELECT a.user_id, CAST(@activityId AS bigint), CAST(@actorId AS bigint),
            CAST(@remoteEntryId AS bigint), CAST(@createdAt AS bigint)
     FROM follows f JOIN actors a ON a.id = f.follower_id
     WHERE f.followed_id = @actorId AND f.state = 'ACCEPTED' AND a.user_id IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM blocks b
                       WHERE b.blocker_id = a.user_id AND b.blocked_actor_id = @actorId)
     ON CONFLICT DO NOTHING`,
  );
  const holdsRemote = db
    .prepare('SELECT 1 FROM feed_items WHERE remote_entry_id = ? AND recipient_id = ? LIMIT 1')
    .pluck<number>();
  // SQLite is told the page's index (INDEXED BY, its own); PostgreSQL's planner finds it.
  const columns = (feedItems: string) => `SELECT fi.activity_id, fi.actor_id, fi.beverage_id,
            fi.remote_entry_id, fi.tasting_id, fi.created_at,
            coalesce(u.full_name, a.display_name, '') AS actor_name,
            coalesce(u.username, a.handle, a.uri, '') AS actor_username
     FROM ${feedItems}
     LEFT JOIN actors a ON a.id = fi.actor_id
     LEFT JOIN users u ON u.id = a.user_id`;
  const order = 'ORDER BY fi.created_at DESC, fi.activity_id DESC LIMIT ?';
  const page = (where: string) => ({
    sqlite: `${columns('feed_items fi INDEXED BY feed_items_page_idx')} WHERE ${where} ${order}`,
    postgres: `${columns('feed_items fi')} WHERE ${where} ${order}`,
  });
  const firstPage = db.prepare<Record<string, unknown>>(page('fi.recipient_id = ?'));
  const nextPage = db.prepare<Record<string, unknown>>(
    page('fi.recipient_id = ? AND (fi.created_at, fi.activity_id) < (?, ?)'),
  );
  const removeActor = db.prepare('DELETE FROM feed_items WHERE recipient_id = ? AND actor_id = ?');

  const rowOf = (row: Record<string, unknown>): FeedRow => ({
    activityId: row.activity_id as number,
    actorId: row.actor_id as number,
    beverageId: row.beverage_id as number | null,
    remoteEntryId: row.remote_entry_id as number | null,
    tastingId: row.tasting_id as number | null,
    createdAt: row.created_at as number,
    actorName: row.actor_name as string,
    actorUsername: row.actor_username as string,
  });

  return {
    /**
     * Puts a Create activity into the feeds of the next FAN_OUT_CHUNK local followers of its
     * actor after `afterFollower` (an actor id), and returns the last one reached when more
     * remain. Idempotent (unique recipient, time and activity); nothing when the entry is gone,
     * or the tasting (`tastingId`, for a CreateTasting: the item is a tasting of the entry).
     */
    async fanOut(
      activity: ActivityRow,
      afterFollower = 0,
      tastingId: number | null = null,
    ): Promise<number | undefined> {
      if (activity.beverageId === null) return undefined;
      await fanOut.run({
        activityId: activity.id,
        actorId: activity.actorId,
        beverageId: activity.beverageId,
        tastingId,
        createdAt: activity.createdAt.getTime(),
        after: afterFollower,
      });
      const last = await lastOfChunk.get(activity.actorId, afterFollower);
      if (last === undefined || !(await anyAfter.get(activity.actorId, last))) return undefined;
      return last;
    },

    /** A page of a user's feed, newest first, after `before` when given. */
    async page(
      recipientId: number,
      before: FeedPosition | undefined,
      limit: number,
    ): Promise<FeedRow[]> {
      const rows = before
        ? await nextPage.all(recipientId, before.createdAt, before.activityId, limit)
        : await firstPage.all(recipientId, limit);
      return rows.map(rowOf);
    },

    /**
     * Puts a received remote entry into the feeds of the local users who follow its actor
     * (ACCEPTED follows only); returns how many. Idempotent. Call inside the entry's transaction.
     */
    async fanOutRemote(item: {
      activityId: number;
      actorId: number;
      remoteEntryId: number;
      createdAt: number;
    }): Promise<number> {
      return (await fanOutRemote.run(item)).changes;
    },

    /** Whether a remote entry is in a user's feed (who may see and clone it). */
    async holdsRemoteEntry(recipientId: number, remoteEntryId: number): Promise<boolean> {
      return (await holdsRemote.get(remoteEntryId, recipientId)) !== undefined;
    },

    /** Drops an actor's items from a user's feed (on unfollow). */
    async removeActor(recipientId: number, actorId: number): Promise<void> {
      await removeActor.run(recipientId, actorId);
    },
  };
}

export type FeedRepository = ReturnType<typeof createFeedRepository>;
