import { index, integer, sqliteTable, text, unique } from '../orm.ts';
import { actors } from './actors.ts';
import { users } from './users.ts';

/**
 * A user's block of an actor: a local user or a remote account (src/blocks/). One row per pair;
 * it goes with either side (a deleted user, a forgotten remote actor).
 */
export const blocks = sqliteTable(
  'blocks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    blockerId: integer('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedActorId: integer('blocked_actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    unique('blocks_pair_unique').on(t.blockerId, t.blockedActorId),
    index('blocks_blocked_idx').on(t.blockedActorId, t.blockerId),
  ],
);

/**
 * A remote account's block of a local user, told by its server (`Block`; `Undo(Block)` removes
 * the row). While it stands, nothing of the user goes to that account and nothing of that account
 * is taken on the user's entries (docs/federation.md, "Blocks").
 */
export const receivedBlocks = sqliteTable(
  'received_blocks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    blockerActorId: integer('blocker_actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    blockedUserId: integer('blocked_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The Block activity's id, matched by its Undo. */
    activityUri: text('activity_uri'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    unique('received_blocks_pair_unique').on(t.blockerActorId, t.blockedUserId),
    index('received_blocks_user_idx').on(t.blockedUserId, t.blockerActorId),
  ],
);

export type BlockRow = typeof blocks.$inferSelect;
export type ReceivedBlockRow = typeof receivedBlocks.$inferSelect;
