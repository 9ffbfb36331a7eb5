import { integer, sqliteTable, text } from '../orm.ts';
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

export type ActorRow = typeof actors.$inferSelect;
