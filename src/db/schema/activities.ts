import { index, integer, sqliteTable, text } from '../orm.ts';
import { actors } from './actors.ts';
import { beverages } from './beverages.ts';
import { remoteEntries } from './remote-entries.ts';
import { shares } from './shares.ts';

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

export type ActivityRow = typeof activities.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;
