import {
  BEVERAGE_STATUSES,
  BEVERAGE_TYPES,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
} from '../../../contract/enums.ts';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { COMMENT_AUDIENCES } from '../../../contract/enums.ts';
import { check, index, integer, sql, sqliteTable, text, unique, uniqueIndex } from '../orm.ts';
import { commentCheers } from './threads.ts';
import { beverages } from './beverages.ts';
import { tastings } from './cellar.ts';
import { users } from './users.ts';

export const ACTOR_KINDS = ['local', 'remote'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/**
 * Everyone who can follow, be followed, act and be notified about: a local user (one row per
 * user, `userId` set, made on first need; names come from `users`) or a remote ActivityPub
 * actor (`uri` and the fields fetched from its actor document). Follows, activities, feed items
 * and notification senders refer to actors, so remote ones need no parallel tables.
 */
export const actors = sqliteTable('actors', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  kind: text('kind', { enum: ACTOR_KINDS }).notNull(),
  userId: integer('user_id')
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The actor's id (remote actors only). */
  uri: text('uri').unique(),
  inboxUrl: text('inbox_url'),
  sharedInboxUrl: text('shared_inbox_url'),
  displayName: text('display_name').notNull().default(''),
  /** '@name@host' (remote actors only). */
  handle: text('handle'),
  summary: text('summary').notNull().default(''),
  avatarUrl: text('avatar_url'),
  /** When the actor document was last fetched (remote actors only): refreshed when stale. */
  fetchedAt: integer('fetched_at', { mode: 'timestamp_ms' }),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * An entry of a remote vault, received as a Create(Note) carrying the vault extension from an
 * actor a local user follows. Shown in followers' feeds read-only; 'Add to vault' clones it.
 * Update and Delete from the same actor change or remove it.
 */
export const remoteEntries = sqliteTable(
  'remote_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    /** The Note's id. */
    noteUri: text('note_uri').notNull().unique(),
    type: text('type', { enum: BEVERAGE_TYPES }).notNull(),
    name: text('name').notNull(),
    subtype: text('subtype').notNull(),
    makerName: text('maker_name').notNull().default(''),
    rating: integer('rating').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status', { enum: BEVERAGE_STATUSES }).notNull(),
    /** The photo's URL on the remote server, and the vault's own copy of it ('media/…'). */
    photoUrl: text('photo_url'),
    photoPath: text('photo_path'),
    /**
     * When the Note is a tasting of the entry (its vault terms `tastedOn`, `openedBottle`,
     * `vintage`): JSON `{ tastedOn, opened, vintage }`; null for an entry.
     */
    tasting: text('tasting'),
    publishedAt: integer('published_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    receivedAt: integer('received_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('remote_entries_actor_idx').on(t.actorId)],
);

export const FOLLOW_STATES = ['PENDING', 'ACCEPTED'] as const;
export type FollowState = (typeof FOLLOW_STATES)[number];

/**
 * `followerId` follows `followedId`. ACCEPTED at once unless the followed user approves
 * followers (then PENDING until they accept; declining deletes it), or the followed remote actor
 * has not sent its Accept yet.
 */
export const follows = sqliteTable(
  'follows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    followerId: integer('follower_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    followedId: integer('followed_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    state: text('state', { enum: FOLLOW_STATES }).notNull(),
    /** The id of the Follow activity, for remote follows (to match Accept and Undo). */
    activityUri: text('activity_uri'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    unique('follows_pair_unique').on(t.followerId, t.followedId),
    index('follows_followed_idx').on(t.followedId, t.state, t.followerId),
  ],
);

export const SHARE_STATES = ['PENDING', 'ACCEPTED'] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/**
 * An entry shared with a local user. PENDING until the recipient adds it to their vault
 * (`listStatus` is the list they chose, `acceptedAt` orders it there); declining deletes it.
 */
export const shares = sqliteTable(
  'shares',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    beverageId: integer('beverage_id')
      .notNull()
      .references(() => beverages.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who shared it: the owner, or an admin on the owner's behalf. */
    sharedById: integer('shared_by_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text('state', { enum: SHARE_STATES }).notNull(),
    listStatus: text('list_status', { enum: BEVERAGE_STATUSES }),
    message: text('message'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    acceptedAt: integer('accepted_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    unique('shares_entry_recipient_unique').on(t.beverageId, t.recipientId),
    index('shares_recipient_idx').on(t.recipientId, t.state, t.acceptedAt),
  ],
);

/**
 * A cheer: one actor (a local user, or a remote account's Like) likes one entry, local
 * (`beverageId`) or received from a remote vault (`remoteEntryId`), never both. Once per actor
 * and entry; taking it back deletes the row.
 */
export const cheers = sqliteTable(
  'cheers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    beverageId: integer('beverage_id').references(() => beverages.id, { onDelete: 'cascade' }),
    remoteEntryId: integer('remote_entry_id').references(() => remoteEntries.id, {
      onDelete: 'cascade',
    }),
    /** The id of a remote actor's Like activity (to match its Undo); null for local cheers. */
    activityUri: text('activity_uri').unique(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    check('cheers_one_entry', sql`(${t.beverageId} is null) <> (${t.remoteEntryId} is null)`),
    // One cheer per actor and entry; the same indexes count an entry's cheers.
    uniqueIndex('cheers_beverage_actor_unique').on(t.beverageId, t.actorId),
    uniqueIndex('cheers_remote_entry_actor_unique').on(t.remoteEntryId, t.actorId),
    index('cheers_actor_idx').on(t.actorId),
  ],
);

/**
 * A comment under an entry, local (`beverageId`) or received from a remote vault
 * (`remoteEntryId`), by an actor. `content` is plain text. `uri` is the ActivityPub id of a
 * reply received from another server (null for a local user's comment).
 */
export const comments = sqliteTable(
  'comments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    beverageId: integer('beverage_id').references(() => beverages.id, { onDelete: 'cascade' }),
    remoteEntryId: integer('remote_entry_id').references(() => remoteEntries.id, {
      onDelete: 'cascade',
    }),
    content: text('content').notNull(),
    uri: text('uri').unique(),
    /** The comment it answers, under the same entry; null for an answer to the entry itself. */
    parentId: integer('parent_id').references((): AnySQLiteColumn => comments.id, {
      onDelete: 'set null',
    }),
    /** Who reads it besides its author and addressees (contract/enums.ts COMMENT_AUDIENCES). */
    audience: text('audience', { enum: COMMENT_AUDIENCES }).notNull().default('PUBLIC'),
    /**
     * Set when a comment with answers is deleted: its text and author are no longer shown
     * ("a deleted comment"), its answers stay under it. A comment without answers is removed.
     */
    deletedAt: integer('deleted_at', { mode: 'timestamp_ms' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    check('comments_one_entry', sql`(${t.beverageId} is null) <> (${t.remoteEntryId} is null)`),
    index('comments_parent_idx')
      .on(t.parentId)
      .where(sql`${t.parentId} is not null`),
    // An entry's thread, oldest first, and its count.
    index('comments_beverage_idx').on(t.beverageId, t.createdAt, t.id),
    index('comments_remote_entry_idx').on(t.remoteEntryId, t.createdAt, t.id),
    index('comments_actor_idx').on(t.actorId),
  ],
);

export const ACTIVITY_TYPES = [
  'Create',
  'Update',
  'Delete',
  'Follow',
  'Undo',
  'Accept',
  'Reject',
  'Offer',
  'Like',
  'UndoLike',
  'Comment',
  'DeleteComment',
  'CreateTasting',
  'UpdateTasting',
  'DeleteTasting',
  'UpdateProfile',
  'Block',
  'UndoBlock',
  'LikeComment',
  'UndoLikeComment',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/**
 * What an actor did that others learn of: an entry, a tasting, a follow, a share, a block, a
 * cheer or comment, a change of profile (ACTIVITY_TYPES). What each type's payload holds, who
 * may be its actor and what orders its hand-offs is its codec's, in src/outbox/kinds/
 * (src/outbox/activities.ts): writers record through the outbox and readers decode there. The conversation's and the
 * tastings' types are their own so that the handlers of an entry's Create, Update, Delete and of
 * a follow's Undo never see them. Recorded in the same transaction as the write that caused it,
 * together with its outbox row.
 */
export const activities = sqliteTable(
  'activities',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ACTIVITY_TYPES }).notNull(),
    /** The entry it is about (Create, Update, Delete, Offer); null once the entry is gone. */
    beverageId: integer('beverage_id').references(() => beverages.id, { onDelete: 'set null' }),
    /** The actor it is about (Follow, Undo of a follow). */
    objectActorId: integer('object_actor_id').references(() => actors.id, {
      onDelete: 'cascade',
    }),
    shareId: integer('share_id').references(() => shares.id, { onDelete: 'set null' }),
    /**
     * The remote entry a remote actor's Create is about (received activities), or that a local
     * user's cheer or comment is on.
     */
    remoteEntryId: integer('remote_entry_id').references(() => remoteEntries.id, {
      onDelete: 'cascade',
    }),
    /** What the receivers need that the rows may no longer hold (JSON), e.g. a deleted entry. */
    payload: text('payload'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('activities_actor_idx').on(t.actorId, t.createdAt, t.id)],
);

/**
 * Activities still to deliver. A row is deleted in the same transaction as its local delivery,
 * and stays (with a later `nextAttemptAt`) when delivery fails, so delivery is at least once.
 */
export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    lastError: text('last_error'),
    /**
     * How far a delivery done in parts got (JSON: the handler it stopped in and where), so a
     * fan-out to thousands of followers never holds the server for long.
     */
    progress: text('progress'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('outbox_due_idx').on(t.nextAttemptAt, t.id)],
);

/**
 * The activity feed: the Create activities delivered to a local user (fan-out on write, by the
 * outbox, off the request path). Newest first by (createdAt, activityId). An item is a local
 * entry (`beverageId`) or a remote one (`remoteEntryId`), never both; a local entry's item with
 * `tastingId` is a tasting of it (CreateTasting).
 */
export const feedItems = sqliteTable(
  'feed_items',
  {
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    beverageId: integer('beverage_id').references(() => beverages.id, { onDelete: 'cascade' }),
    remoteEntryId: integer('remote_entry_id').references(() => remoteEntries.id, {
      onDelete: 'cascade',
    }),
    /** A tasting of the local entry `beverageId` (a CreateTasting); it goes with the tasting. */
    tastingId: integer('tasting_id').references(() => tastings.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    check('feed_items_one_entry', sql`(${t.beverageId} is null) <> (${t.remoteEntryId} is null)`),
    // Unique on (recipient, created_at, activity) rather than a primary key on (recipient,
    // activity): an activity has one created_at, so it means the same, and the index that
    // serves the pages then also keeps fan-out idempotent, one index fewer to write per item.
    uniqueIndex('feed_items_page_idx').on(t.recipientId, t.createdAt, t.activityId),
    index('feed_items_actor_idx').on(t.recipientId, t.actorId),
    index('feed_items_beverage_idx').on(t.beverageId),
    index('feed_items_remote_entry_idx').on(t.remoteEntryId),
    index('feed_items_tasting_idx')
      .on(t.tastingId)
      .where(sql`${t.tastingId} is not null`),
  ],
);

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

export type ActorRow = typeof actors.$inferSelect;
export type FollowRow = typeof follows.$inferSelect;
export type ShareRow = typeof shares.$inferSelect;
export type ActivityRow = typeof activities.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
export type RemoteEntryRow = typeof remoteEntries.$inferSelect;
export type CheerRow = typeof cheers.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
