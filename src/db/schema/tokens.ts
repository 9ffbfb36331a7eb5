import { index, integer, sqliteTable, text } from '../orm.ts';
import { users } from './users.ts';

/**
 * Personal access tokens (src/tokens/): a named secret with a scope that lets a script call
 * /api as its owner. Only the SHA-256 of the secret is stored. A revoked token is deleted: it
 * has no further use, and a deleted hash cannot match, so the lookup needs no extra condition
 * and nothing is left to purge.
 */
export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    /** SHA-256 (hex) of the secret; the secret itself is shown once and never stored. */
    secretHash: text('secret_hash').notNull().unique(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    /** Written at most once a minute per token. */
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('api_tokens_user_id_idx').on(t.userId)],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;
