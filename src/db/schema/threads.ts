import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from '../orm.ts';
import { actors } from './actors.ts';
import { comments } from './conversation.ts';

/**
 * The people a comment is addressed to (docs/social.md, "Who reads a reply"): those it mentions
 * (`mentioned`) and those a private or followers-only reply names in its audience (a Note's
 * `to`/`cc`, or the author answered privately). They read it whatever its audience, as long as
 * they may see the entry.
 */
export const commentAddressees = sqliteTable(
  'comment_addressees',
  {
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    mentioned: integer('mentioned', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.commentId, t.actorId] }),
    index('comment_addressees_actor_idx').on(t.actorId),
  ],
);

/** A cheer of a comment, by a local user or a remote account (a `Like` of the comment's Note). */
export const commentCheers = sqliteTable(
  'comment_cheers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => actors.id, { onDelete: 'cascade' }),
    /** The id of a remote actor's Like activity (to match its Undo); null for local cheers. */
    activityUri: text('activity_uri').unique(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // One cheer per actor and comment; the same index counts a comment's cheers.
    uniqueIndex('comment_cheers_comment_actor_unique').on(t.commentId, t.actorId),
    index('comment_cheers_actor_idx').on(t.actorId),
  ],
);

export type CommentAddresseeRow = typeof commentAddressees.$inferSelect;
export type CommentCheerRow = typeof commentCheers.$inferSelect;
