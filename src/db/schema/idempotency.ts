import { index, integer, sqliteTable, text, uniqueIndex } from '../orm.ts';
import { users } from './users.ts';

/**
 * The answers of writes sent with an `Idempotency-Key` header (src/http/idempotency.ts): one row
 * per user and key, kept 24 hours, so that a retried request answers its first result instead of
 * being applied again. `status` is null while the first request is still being processed.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 (hex) of the method, the path and the raw body bytes. */
    requestHash: text('request_hash').notNull(),
    /** The answer's status; null while the request is being processed. */
    status: integer('status'),
    /** The answer's JSON body as sent; null for an answer without a body. */
    body: text('body'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_user_key_idx').on(t.userId, t.key),
    index('idempotency_keys_created_at_idx').on(t.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
