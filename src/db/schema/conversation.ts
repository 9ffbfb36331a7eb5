import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { COMMENT_AUDIENCES } from '../../../contract/enums.ts';
import { check, index, integer, sql, sqliteTable, text, uniqueIndex } from '../orm.ts';
import { actors } from './actors.ts';
import { beverages } from './beverages.ts';
import { remoteEntries } from './remote-entries.ts';

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

export type CheerRow = typeof cheers.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;
