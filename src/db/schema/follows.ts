import { index, integer, sqliteTable, text, unique } from '../orm.ts';
import { actors } from './actors.ts';

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

export type FollowRow = typeof follows.$inferSelect;
