import { index, integer, sqliteTable, unique } from '../orm.ts';
import { actors } from './social.ts';
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

export type BlockRow = typeof blocks.$inferSelect;
