import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES } from '../../../contract/enums.ts';
import { index, integer, sql, sqliteTable, text, unique } from '../orm.ts';
import { activities } from './activities.ts';
import { actors } from './actors.ts';
import { beverages } from './beverages.ts';
import { cheers, comments } from './conversation.ts';
import { shares } from './shares.ts';
import { commentCheers } from './threads.ts';
import { users } from './users.ts';

/**
 * The Alerts panel: invitations (a follow, FOLLOW_INVITE; a shared entry, SHARE_INVITE) and news
 * of a cheer (CHEER) or a comment (COMMENT) on the recipient's entry.
 */
export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    status: text('status', { enum: NOTIFICATION_STATUSES }).notNull(),
    senderId: integer('sender_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    /** The activity it came from: one notification per activity and recipient. */
    activityId: integer('activity_id').references(() => activities.id, { onDelete: 'set null' }),
    beverageId: integer('beverage_id').references(() => beverages.id, { onDelete: 'cascade' }),
    shareId: integer('share_id').references(() => shares.id, { onDelete: 'set null' }),
    /** The cheer (CHEER) or comment (COMMENT) it tells of: it goes when they go. */
    cheerId: integer('cheer_id').references(() => cheers.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    /** The cheer of a comment (COMMENT_CHEER) it tells of: it goes when the cheer goes. */
    commentCheerId: integer('comment_cheer_id').references(() => commentCheers.id, {
      onDelete: 'cascade',
    }),
    message: text('message'),
    /** A link to the original post (a MENTION from the fediverse); null otherwise. */
    url: text('url'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    respondedAt: integer('responded_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('notifications_recipient_idx').on(t.recipientId, t.createdAt, t.id),
    unique('notifications_activity_unique').on(t.activityId, t.recipientId),
    // Deleting a cheer or a comment finds its notification (partial: most rows have neither).
    index('notifications_cheer_idx')
      .on(t.cheerId)
      .where(sql`${t.cheerId} is not null`),
    index('notifications_comment_idx')
      .on(t.commentId)
      .where(sql`${t.commentId} is not null`),
    index('notifications_comment_cheer_idx')
      .on(t.commentCheerId)
      .where(sql`${t.commentCheerId} is not null`),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
