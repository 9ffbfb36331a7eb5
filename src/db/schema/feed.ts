import { check, index, integer, sql, sqliteTable, uniqueIndex } from '../orm.ts';
import { activities } from './activities.ts';
import { actors } from './actors.ts';
import { beverages } from './beverages.ts';
import { tastings } from './cellar.ts';
import { remoteEntries } from './remote-entries.ts';
import { users } from './users.ts';

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
