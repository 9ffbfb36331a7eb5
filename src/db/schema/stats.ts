import { index, integer, primaryKey, sql, sqliteTable, text } from '../orm.ts';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES } from '../../../contract/enums.ts';
import { users } from './users.ts';

/**
 * Running counts of each owner's entries, kept by triggers on `beverages` (migration
 * 0009_stats_tallies): every insert, delete and change of a counted column adds to or takes
 * from them in the same statement, whoever writes (the server, an import, the CLI). The
 * statistics read them for all-time figures instead of grouping every entry
 * (src/stats/repository.ts). A count that falls to zero is removed.
 */

/** How many of an owner's entries share a type, status, rating, cellar flag and subtype. */
export const entryTallies = sqliteTable(
  'entry_tallies',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: BEVERAGE_TYPES }).notNull(),
    status: text('status', { enum: BEVERAGE_STATUSES }).notNull(),
    rating: integer('rating').notNull(),
    inCellar: integer('in_cellar').notNull(),
    subtype: text('subtype').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type, t.status, t.rating, t.inCellar, t.subtype] })],
);

/** How many of an owner's entries of a type name a maker ('' when none is named). */
export const makerTallies = sqliteTable(
  'maker_tallies',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: BEVERAGE_TYPES }).notNull(),
    makerName: text('maker_name').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.type, t.makerName] }),
    // The top makers of a type: most entries first, ties by name.
    index('maker_tallies_top_idx').on(t.userId, t.type, sql`${t.n} DESC`, t.makerName),
  ],
);

/** How many of an owner's entries, of every type, name a maker. */
export const makerTotals = sqliteTable(
  'maker_totals',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    makerName: text('maker_name').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.makerName] }),
    index('maker_totals_top_idx').on(t.userId, sql`${t.n} DESC`, t.makerName),
  ],
);
