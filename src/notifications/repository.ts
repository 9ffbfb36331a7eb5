import type { Database } from '../db/database.ts';
import type { NotificationStatus, NotificationType } from '../../contract/enums.ts';
import type { FollowState } from '../db/schema/index.ts';
import {
  blockedBetweenUsersSql,
  blockedEitherWaySql,
  commentReadableSql,
} from '../visibility/policy.ts';

/** A notification with what the Alerts panel shows of its sender and entry. */
export interface NotificationView {
  id: number;
  recipientId: number;
  type: NotificationType;
  status: NotificationStatus;
  senderActorId: number;
  /** The sender's local user, or null for a remote actor. */
  senderUserId: number | null;
  senderName: string;
  senderUsername: string | null;
  /** The recipient's follow of the sender, if any: ACCEPTED, or PENDING (awaiting an Accept). */
  followOfSender: FollowState | null;
  beverage: { id: number; name: string } | null;
  shareId: number | null;
  message: string | null;
  url: string | null;
  createdAt: Date;
}

export interface NewNotification {
  recipientId: number;
  type: NotificationType;
  senderId: number;
  activityId: number;
  beverageId?: number | null;
  shareId?: number | null;
  /** The cheer or comment it tells of: the notification is deleted with it. */
  cheerId?: number | null;
  commentId?: number | null;
  /** The cheer of a comment (COMMENT_CHEER) it tells of: deleted with it. */
  commentCheerId?: number | null;
  message?: string | null;
  /** A link to the original post (a MENTION from the fediverse). */
  url?: string | null;
  createdAt: number;
}

const VIEW = `SELECT n.id, n.recipient_id, n.type, n.status, n.sender_id, n.share_id, n.message,
         n.url, n.created_at, n.beverage_id, b.name AS beverage_name, a.user_id AS sender_user_id,
         coalesce(u.full_name, a.display_name, '') AS sender_name,
         coalesce(u.username, a.handle) AS sender_username, f.state AS follow_state
  FROM notifications n
  LEFT JOIN actors a ON a.id = n.sender_id
  LEFT JOIN users u ON u.id = a.user_id
  LEFT JOIN beverages b ON b.id = n.beverage_id
  LEFT JOIN actors me ON me.user_id = n.recipient_id
  LEFT JOIN follows f ON f.follower_id = me.id AND f.followed_id = n.sender_id`;

/**
 * A notification its recipient is shown: none whose sender the recipient blocked or was blocked
 * by, nor one about an entry whose owner is blocked either way with the recipient
 * (docs/social.md, "Blocks"), nor one about a comment the recipient does not read (deleted,
 * or no longer for them: "Who reads a reply"). The others stay stored and come back when the
 * block is lifted.
 */
const SHOWN = `NOT ${blockedEitherWaySql('n.recipient_id', 'coalesce(me.id, 0)', 'n.sender_id')}
  AND (b.user_id IS NULL OR NOT ${blockedBetweenUsersSql('n.recipient_id', 'b.user_id')})
  AND (n.comment_id IS NULL OR EXISTS (SELECT 1 FROM comments nc WHERE nc.id = n.comment_id
    AND nc.deleted_at IS NULL
    AND ${commentReadableSql('n.recipient_id', 'coalesce(me.id, 0)', 'nc')}))`;

function viewOf(row: Record<string, unknown>): NotificationView {
  const beverageId = row.beverage_id as number | null;
  return {
    id: row.id as number,
    recipientId: row.recipient_id as number,
    type: row.type as NotificationType,
    status: row.status as NotificationStatus,
    senderActorId: row.sender_id as number,
    senderUserId: row.sender_user_id as number | null,
    senderName: row.sender_name as string,
    senderUsername: row.sender_username as string | null,
    followOfSender: row.follow_state as FollowState | null,
    beverage:
      beverageId === null ? null : { id: beverageId, name: (row.beverage_name as string) ?? '' },
    shareId: row.share_id as number | null,
    message: row.message as string | null,
    url: row.url as string | null,
    createdAt: new Date(row.created_at as number),
  };
}

/**
 * Data access for notifications: the only place that queries `notifications`. A list is one
 * range of the (recipient, created_at, id) index, newest first, with sender and entry names
 * read by id for the rows of that range only.
 */
export function createNotificationRepository(db: Database) {
  const insert = db.prepare(
    `INSERT INTO notifications (recipient_id, type, status, sender_id, activity_id, beverage_id,
       share_id, cheer_id, comment_id, comment_cheer_id, message, url, created_at)
     VALUES (@recipientId, @type, 'PENDING', @senderId, @activityId, @beverageId, @shareId,
       @cheerId, @commentId, @commentCheerId, @message, @url, @createdAt)
     ON CONFLICT (activity_id, recipient_id) DO NOTHING`,
  );
  const list = db.prepare<Record<string, unknown>>(
    `${VIEW} WHERE n.recipient_id = ? AND ${SHOWN} ORDER BY n.created_at DESC, n.id DESC LIMIT ?`,
  );
  const one = db.prepare<Record<string, unknown>>(
    `${VIEW} WHERE n.id = ? AND n.recipient_id = ? AND ${SHOWN}`,
  );
  const answer = db.prepare(
    `UPDATE notifications SET status = ?, responded_at = ? WHERE id = ? AND status = 'PENDING'`,
  );
  const withdrawShare = db.prepare(
    `DELETE FROM notifications WHERE share_id = ? AND type = 'SHARE_INVITE' AND status = 'PENDING'`,
  );
  const dropPendingFollow = db.prepare(
    `DELETE FROM notifications
     WHERE recipient_id = ? AND sender_id = ? AND type IN ('FOLLOW_INVITE', 'FOLLOW_REQUEST')
       AND status = 'PENDING'`,
  );
  const acceptRequests = db.prepare(
    `UPDATE notifications SET status = 'ACCEPTED', responded_at = ?
     WHERE recipient_id = ? AND type = 'FOLLOW_REQUEST' AND status = 'PENDING'`,
  );

  return {
    /** Adds a notification once per activity and recipient (a repeated delivery adds nothing). */
    async add(values: NewNotification): Promise<boolean> {
      const result = await insert.run({
        beverageId: null,
        shareId: null,
        cheerId: null,
        commentId: null,
        commentCheerId: null,
        message: null,
        url: null,
        ...values,
      });
      return result.changes > 0;
    },

    /** A user's most recent notifications they are shown (SHOWN), newest first. */
    async recent(recipientId: number, limit: number): Promise<NotificationView[]> {
      return (await list.all(recipientId, limit)).map(viewOf);
    },

    /** One of a user's notifications (undefined for another user's, a hidden or unknown id). */
    async findOwn(id: number, recipientId: number): Promise<NotificationView | undefined> {
      const row = await one.get(id, recipientId);
      return row && viewOf(row);
    },

    /** PENDING → ACCEPTED or DECLINED; false when it was no longer pending. */
    async answer(id: number, status: 'ACCEPTED' | 'DECLINED', at: number): Promise<boolean> {
      return (await answer.run(status, at, id)).changes > 0;
    },

    /** Withdraws the unanswered invitations of a share that is being removed. */
    async withdrawShareInvites(shareId: number): Promise<void> {
      await withdrawShare.run(shareId);
    },

    /**
     * Withdraws a follow invitation or request that was not answered (the follower unfollowed
     * or took the request back).
     */
    async dropPendingFollowInvites(recipientId: number, senderId: number): Promise<void> {
      await dropPendingFollow.run(recipientId, senderId);
    },

    /** Marks the user's unanswered follow requests accepted (all were, at once). */
    async acceptPendingFollowRequests(recipientId: number, at: number): Promise<void> {
      await acceptRequests.run(at, recipientId);
    },
  };
}

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
