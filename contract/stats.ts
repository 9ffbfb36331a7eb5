import { z } from 'zod';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES } from './enums.ts';

/**
 * The signed-in user's statistics (GET /stats) and a year in review (GET /stats/years/{year}).
 * Only the caller's own entries count. Months and years are calendar months and years in the
 * time zone the client names (`tz`, an IANA name such as Europe/Paris; UTC when left out), and an
 * entry belongs to the month it was logged in (its createdAt).
 */

/** How many subtypes and makers a top list holds. */
export const STATS_TOP = 5;
/** How many favourites a year in review names. */
export const YEAR_FAVOURITES = 5;

const count = z.number().int().nonnegative();

/** A number per beverage type. */
export const typeCountsSchema = z.object({ WHISKEY: count, WINE: count, BEER: count });
export type TypeCounts = z.infer<typeof typeCountsSchema>;

/** One line of a top list: a subtype or a maker, and how many entries it has. */
export const rankedSchema = z.object({ name: z.string(), count });
export type Ranked = z.infer<typeof rankedSchema>;

/** The figures of a set of entries: every entry, or one type's. */
export const statsSummarySchema = z.object({
  total: count,
  tried: count,
  toTry: count,
  /** Entries marked 'In cellar' (each entry is one bottle). */
  inCellar: count,
  /** The mean rating of tried entries, one decimal; null when none is tried. */
  averageRating: z.number().nullable(),
  /** Tried entries per rating: index 0 holds rating 0, index 5 rating 5 (to-try ones are unrated). */
  ratings: z.array(count).length(6),
  /** Most logged first, ties by name; at most STATS_TOP. */
  topSubtypes: z.array(rankedSchema),
  /** Most logged first, ties by name; entries without a maker are left out; at most STATS_TOP. */
  topMakers: z.array(rankedSchema),
});
export type StatsSummary = z.infer<typeof statsSummarySchema>;

/** Every entry's figures (`all`) and each type's. */
export const statsBreakdownSchema = z.object({
  all: statsSummarySchema,
  types: z.object({
    WHISKEY: statsSummarySchema,
    WINE: statsSummarySchema,
    BEER: statsSummarySchema,
  }),
});
export type StatsBreakdown = z.infer<typeof statsBreakdownSchema>;

/** Entries logged in one calendar month ('2026-03'), per type. */
export const monthCountSchema = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  counts: typeCountsSchema,
});
export type MonthCount = z.infer<typeof monthCountSchema>;

/** A month ('2026-03') and a number of bottles. */
export const monthBottlesSchema = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  bottles: count,
});
export type MonthBottles = z.infer<typeof monthBottlesSchema>;

/** The summed price of one type's bottles in one currency. */
export const typeValueSchema = z.object({
  type: z.enum(BEVERAGE_TYPES),
  currency: z.string(),
  amount: z.number(),
});
export type TypeValue = z.infer<typeof typeValueSchema>;

/**
 * The cellar over time, for the same twelve months as `months`. Bottles are counted as in GET
 * /cellar: bottle lines by quantity, and an entry 'In cellar' without bottle lines as one.
 */
export const cellarStatsSchema = z.object({
  /** Bottles opened in each month. */
  opened: z.array(monthBottlesSchema).length(12),
  /**
   * Bottles in the cellar at the end of each month (the current month: now). Worked back from
   * now through the bottles added, opened, changed and removed since; an entry 'In cellar'
   * without bottle lines counts from the month it was logged.
   */
  size: z.array(monthBottlesSchema).length(12),
  /** What the bottles in the cellar now cost, per type and currency; by type, largest first. */
  valueByType: z.array(typeValueSchema),
});
export type CellarStats = z.infer<typeof cellarStatsSchema>;

/** GET /stats */
export const statsSchema = statsBreakdownSchema.extend({
  timeZone: z.string(),
  /** The last 12 calendar months, oldest first, the current month last. */
  months: z.array(monthCountSchema).length(12),
  /** The years from the first entry's to the latest entry's, newest first (for year in review). */
  years: z.array(z.number().int()),
  cellar: cellarStatsSchema,
});
export type Stats = z.infer<typeof statsSchema>;

/** An entry as a year in review names it. */
export const reviewEntrySchema = z.object({
  id: z.number().int(),
  type: z.enum(BEVERAGE_TYPES),
  name: z.string(),
  subtype: z.string(),
  makerName: z.string(),
  rating: z.number().int(),
  status: z.enum(BEVERAGE_STATUSES),
  createdAt: z.string(),
});
export type ReviewEntry = z.infer<typeof reviewEntrySchema>;

/** GET /stats/years/{year}: the entries logged in that calendar year. */
export const yearReviewSchema = statsBreakdownSchema.extend({
  year: z.number().int(),
  timeZone: z.string(),
  /** January to December. */
  months: z.array(monthCountSchema).length(12),
  /** The best rated tried entries of the year, newest first among equals; at most YEAR_FAVOURITES. */
  favourites: z.array(reviewEntrySchema),
  /** The year's first and last logged entries (null in a year with none). */
  first: reviewEntrySchema.nullable(),
  last: reviewEntrySchema.nullable(),
  /** As in GET /stats, for moving between years. */
  years: z.array(z.number().int()),
});
export type YearReview = z.infer<typeof yearReviewSchema>;

/** The query of both: `tz`, an IANA time zone name; UTC when left out or empty. */
export const statsQuerySchema = z.object({
  tz: z
    .string()
    .max(64, 'tz must be a time zone name such as Europe/Paris')
    .refine((tz) => tz === '' || isTimeZone(tz), 'tz must be a time zone name such as Europe/Paris')
    .optional()
    .meta({ description: 'An IANA time zone name such as Europe/Paris; UTC when left out' }),
});
export type StatsQuery = z.infer<typeof statsQuerySchema>;

/** Whether the runtime knows the IANA time zone name. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
