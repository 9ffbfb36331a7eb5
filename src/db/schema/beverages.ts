import { index, integer, sqliteTable, text } from '../orm.ts';
import { users } from './users.ts';

import { BEVERAGE_STATUSES, BEVERAGE_TYPES, VISIBILITIES } from '../../../contract/enums.ts';

export {
  BEVERAGE_STATUSES,
  BEVERAGE_TYPES,
  type BeverageStatus,
  type BeverageType,
  VISIBILITIES,
  type Visibility,
} from '../../../contract/enums.ts';

/**
 * A logged whiskey, wine or beer. Search runs on an in-memory index of each owner's entries
 * (src/beverages/search-index.ts).
 */
export const beverages = sqliteTable(
  'beverages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: BEVERAGE_TYPES }).notNull(),
    name: text('name').notNull(),
    subtype: text('subtype').notNull(),
    makerName: text('maker_name').notNull().default(''),
    rating: integer('rating').notNull(),
    notes: text('notes').notNull().default(''),
    status: text('status', { enum: BEVERAGE_STATUSES }).notNull(),
    inCellar: integer('in_cellar', { mode: 'boolean' }).notNull().default(false),
    photoPath: text('photo_path'),
    /** Who may see it (src/visibility/policy.ts). */
    visibility: text('visibility', { enum: VISIBILITIES }).notNull().default('MEMBERS'),
    /**
     * Whether it goes to the owner's remote followers when the owner federates; never for a
     * PRIVATE entry (the service stores false then).
     */
    federated: integer('federated', { mode: 'boolean' }).notNull().default(true),
    /** The drinking window: the first and the last year it is at its best; null when open. */
    drinkFrom: integer('drink_from'),
    drinkUntil: integer('drink_until'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('beverages_user_type_status_idx').on(t.userId, t.type, t.status, t.createdAt, t.id),
    index('beverages_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('beverages_user_cellar_idx').on(t.userId, t.inCellar, t.createdAt, t.id),
    // Which entry a photo belongs to (the media route asks the visibility policy).
    index('beverages_photo_path_idx').on(t.photoPath),
  ],
);

export type BeverageRow = typeof beverages.$inferSelect;

/**
 * Capabilities for bottle photos of federated entries: a random token in the URL under which
 * the servers the entry was sent to fetch the photo without a session. One per entry and
 * photo: a new photo gets a new token, and the old URL stops answering.
 */
export const photoCapabilities = sqliteTable('photo_capabilities', {
  token: text('token').primaryKey(),
  beverageId: integer('beverage_id')
    .notNull()
    .unique()
    .references(() => beverages.id, { onDelete: 'cascade' }),
  /** The stored photo the token opens ('media/…'). */
  photoPath: text('photo_path').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});
