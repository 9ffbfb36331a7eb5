import { index, integer, sqliteTable, text } from '../orm.ts';
import { beverages } from './beverages.ts';
import { users } from './users.ts';

/**
 * The places a user keeps bottles in, nested ("Basement › Rack A › Bin 3"): each has at most one
 * parent place of the same user. A place with bottles in it or below it cannot be deleted.
 */
export const places = sqliteTable(
  'places',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The place it is in; null for a place at the top. */
    parentId: integer('parent_id'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('places_user_parent_idx').on(t.userId, t.parentId)],
);

export type PlaceRow = typeof places.$inferSelect;

/**
 * Bottles of an entry kept in the cellar: one row per kind of bottle (same size, vintage, place
 * and purchase), with how many of them there are. Adding one puts the entry in the cellar.
 */
export const bottles = sqliteTable(
  'bottles',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    beverageId: integer('beverage_id')
      .notNull()
      .references(() => beverages.id, { onDelete: 'cascade' }),
    /** The entry's owner, kept here so that a cellar's bottles are read without a join. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    sizeMl: integer('size_ml').notNull(),
    vintage: integer('vintage'),
    placeId: integer('place_id').references(() => places.id),
    /** 'YYYY-MM-DD'. */
    purchasedOn: text('purchased_on'),
    /** The price of one bottle in the currency's minor unit (cents). */
    priceMinor: integer('price_minor'),
    /** ISO 4217 ('EUR'); set when the price is. */
    currency: text('currency'),
    note: text('note').notNull().default(''),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('bottles_beverage_idx').on(t.beverageId),
    index('bottles_user_place_idx').on(t.userId, t.placeId),
  ],
);

export type BottleRow = typeof bottles.$inferSelect;

/**
 * What happened to the number of bottles in a cellar, for the statistics (bottles opened per
 * month, cellar size over time): `change` is +n when bottles are added, −1 when one is opened,
 * and ±n when a quantity is edited or a bottle line deleted. Kept when the bottle or the entry
 * is gone, so the history stays true.
 */
export const bottleEvents = sqliteTable(
  'bottle_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    beverageId: integer('beverage_id'),
    kind: text('kind', { enum: ['ADDED', 'OPENED', 'CHANGED', 'REMOVED'] }).notNull(),
    change: integer('change').notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('bottle_events_user_at_idx').on(t.userId, t.at)],
);

export type BottleEventRow = typeof bottleEvents.$inferSelect;

/**
 * A tasting of an entry: a dated rating and notes, from an opened bottle or on its own. The
 * entry's own rating is left as it is (its owner may set it from a tasting).
 */
export const tastings = sqliteTable(
  'tastings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    beverageId: integer('beverage_id')
      .notNull()
      .references(() => beverages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'YYYY-MM-DD'. */
    tastedOn: text('tasted_on').notNull(),
    /** 1 to 5; null when not rated. */
    rating: integer('rating'),
    notes: text('notes').notNull().default(''),
    photoPath: text('photo_path'),
    /** The vintage of the bottle it was opened from, when there was one. */
    vintage: integer('vintage'),
    /** Whether it came from opening a bottle. */
    opened: integer('opened', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('tastings_beverage_idx').on(t.beverageId, t.tastedOn, t.id),
    index('tastings_user_idx').on(t.userId, t.createdAt),
    index('tastings_photo_path_idx').on(t.photoPath),
  ],
);

export type TastingRow = typeof tastings.$inferSelect;

/**
 * Capabilities for the photos of federated tastings, as `photo_capabilities` are for entries: a
 * random token in the URL under which the servers the tasting was sent to fetch its photo without
 * a session. One per tasting and photo: a new photo gets a new token, the old URL stops answering.
 */
export const tastingPhotoCapabilities = sqliteTable('tasting_photo_capabilities', {
  token: text('token').primaryKey(),
  tastingId: integer('tasting_id')
    .notNull()
    .unique()
    .references(() => tastings.id, { onDelete: 'cascade' }),
  /** The stored photo the token opens ('media/…'). */
  photoPath: text('photo_path').notNull(),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});
