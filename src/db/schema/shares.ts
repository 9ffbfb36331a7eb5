import { BEVERAGE_STATUSES } from '../../../contract/enums.ts';
import { index, integer, sqliteTable, text, unique } from '../orm.ts';
import { beverages } from './beverages.ts';
import { users } from './users.ts';

export const SHARE_STATES = ['PENDING', 'ACCEPTED'] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/**
 * An entry shared with a local user. PENDING until the recipient adds it to their vault
 * (`listStatus` is the list they chose, `acceptedAt` orders it there); declining deletes it.
 */
export const shares = sqliteTable(
  'shares',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    beverageId: integer('beverage_id')
      .notNull()
      .references(() => beverages.id, { onDelete: 'cascade' }),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who shared it: the owner, or an admin on the owner's behalf. */
    sharedById: integer('shared_by_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    state: text('state', { enum: SHARE_STATES }).notNull(),
    listStatus: text('list_status', { enum: BEVERAGE_STATUSES }),
    message: text('message'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    acceptedAt: integer('accepted_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    unique('shares_entry_recipient_unique').on(t.beverageId, t.recipientId),
    index('shares_recipient_idx').on(t.recipientId, t.state, t.acceptedAt),
  ],
);

export type ShareRow = typeof shares.$inferSelect;
