import type { Database } from '../db/database.ts';
import { createReadCache } from '../db/read-cache.ts';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES } from '../../contract/enums.ts';
import type { BeverageStatus, BeverageType } from '../db/schema/index.ts';

/** Entries of one kind: how many share a type, status, rating, cellar flag and subtype. */
export interface EntryGroup {
  type: BeverageType;
  status: BeverageStatus;
  rating: number;
  inCellar: boolean;
  subtype: string;
  count: number;
}

/** A maker and its entries: of one type, or of every type (`type` null). */
export interface MakerCount {
  type: BeverageType | null;
  name: string;
  count: number;
}

export interface EntryBrief {
  id: number;
  type: BeverageType;
  name: string;
  subtype: string;
  makerName: string;
  rating: number;
  status: BeverageStatus;
  createdAt: number;
}

/** Instants [from, to) in ms; every statement below counts the entries logged within. */
export interface Span {
  from: number;
  to: number;
}

/** Every instant an entry can have been logged at. */
export const ALL_TIME: Span = { from: -8.64e15, to: 8.64e15 };

/** How many months `months` splits its span into (a year, or the last twelve months). */
export const MONTHS = 12;

/** An EntryBrief's columns, named as its fields. */
const BRIEF =
  'id, type, name, subtype, maker_name AS makerName, rating, status, created_at AS createdAt';

/**
 * A row of `figures` (the columns named f_… so that no name is also a column's): the kind of
 * row (`part`), type, status or maker, rating or count, cellar flag, subtype, count.
 */
interface FigureRow {
  part: 0 | 1 | 2;
  f_type: BeverageType | null;
  f_key: string;
  f_number: number;
  f_cellar: number;
  f_subtype: string;
  f_count: number;
}

/**
 * The statistics' reads of `beverages`: aggregates over one owner's entries, each one pass over
 * that owner's rows through the (user_id, …) indexes, so their cost grows with the owner's
 * entries only. Nothing here writes.
 *
 * All-time figures come from the tallies that triggers keep (src/db/schema/stats.ts): a few
 * hundred rows and three index ranges, where grouping 20,000 rows took tens of milliseconds.
 * A span's figures (a year in review) group that span's rows.
 *
 * The aggregates are memoized until the database changes (src/db/read-cache.ts), so looking at
 * the statistics again, or going back and forth between them and a year, costs nothing until
 * something is written.
 */
export function createStatsRepository(db: Database, options: { now?: () => number } = {}) {
  const memo = createReadCache<string, unknown>(db, { maxEntries: 200, ...options });
  const cached = async <T>(key: string, read: () => Promise<T>): Promise<T> =>
    (await memo.get(key, read)) as T;
  const range = 'user_id = @userId AND created_at >= @from AND created_at < @to';
  // One pass over the owner's rows in the span (the costly part: reading each row and sorting
  // them into groups), then small sorts over those groups: the entries per type, status,
  // rating, cellar flag and subtype (kind 0), the top makers of each type (kind 1) and of
  // every type together (kind 2). As two statements, the rows were read and sorted twice.
  const figures = db.prepare<FigureRow>(
    `WITH g AS MATERIALIZED (
         SELECT type, status, rating, in_cellar, subtype, maker_name, count(*) AS n
         FROM beverages WHERE ${range}
         GROUP BY type, maker_name, status, rating, in_cellar, subtype),
       m AS MATERIALIZED (
         SELECT type, maker_name AS name, sum(n) AS n FROM g
         WHERE maker_name <> '' GROUP BY type, maker_name)
       SELECT 0 AS part, type AS f_type, status AS f_key, rating AS f_number,
              in_cellar AS f_cellar, subtype AS f_subtype, sum(n) AS f_count FROM g
       GROUP BY type, status, rating, in_cellar, subtype
       UNION ALL
       SELECT 1, type, name, n, 0, '', 0 FROM (
         SELECT type, name, n, row_number() OVER (PARTITION BY type ORDER BY n DESC, name) AS r
         FROM m) AS ranked
       WHERE r <= @top
       UNION ALL
       SELECT * FROM (
         SELECT 2, NULL, name, sum(n) AS total, 0, '', 0 FROM m
         GROUP BY name ORDER BY total DESC, name LIMIT @top) AS top_all`,
  );
  // One pass over the span: each entry falls in the month whose start it is past last. The IN
  // lists let SQLite read (user_id, type, status, created_at) ranges alone, never the rows.
  const monthCase = Array.from(
    { length: MONTHS - 1 },
    (_, i) => `WHEN created_at < @b${i + 1} THEN ${i}`,
  ).join(' ');
  const inList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
  const months = db.prepare<{ m: number; type: BeverageType; n: number }>(
    `SELECT CASE ${monthCase} ELSE ${MONTHS - 1} END AS m, type, count(*) AS n
     FROM beverages
     WHERE user_id = @userId AND type IN (${inList(BEVERAGE_TYPES)})
       AND status IN (${inList(BEVERAGE_STATUSES)})
       AND created_at >= @b0 AND created_at < @b${MONTHS}
     GROUP BY m, type`,
  );
  const best = db.prepare<EntryBrief>(
    `SELECT ${BRIEF} FROM beverages WHERE ${range} AND status = 'TRIED'
     ORDER BY rating DESC, created_at DESC, id DESC LIMIT @limit`,
  );
  const first = db.prepare<EntryBrief>(
    `SELECT ${BRIEF} FROM beverages WHERE ${range} ORDER BY created_at, id LIMIT 1`,
  );
  const last = db.prepare<EntryBrief>(
    `SELECT ${BRIEF} FROM beverages WHERE ${range} ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  // All time: the running tallies (migration 0009_stats_tallies) hold the same groups and
  // maker counts, kept by triggers as entries are written, so nothing is grouped on reading.
  const talliedGroups = db.prepare<FigureRow>(
    `SELECT 0 AS part, type AS f_type, status AS f_key, rating AS f_number, in_cellar AS f_cellar,
            subtype AS f_subtype, n AS f_count FROM entry_tallies WHERE user_id = @userId`,
  );
  // The top makers of each type, then of every type together: each an index range
  // (maker_tallies_top_idx, maker_totals_top_idx) read for its first `top` rows.
  const topOfType = (type: string) =>
    `SELECT * FROM (SELECT 1 AS part, type AS f_type, maker_name AS f_key, n AS f_number,
         0 AS f_cellar, '' AS f_subtype, 0 AS f_count FROM maker_tallies
       WHERE user_id = @userId AND type = '${type}' ORDER BY n DESC, maker_name LIMIT @top)
       AS top_${type.toLowerCase()}`;
  const talliedMakers = db.prepare<FigureRow>(
    [
      ...BEVERAGE_TYPES.map(topOfType),
      `SELECT * FROM (SELECT 2, NULL, maker_name, n, 0, '', 0 FROM maker_totals
         WHERE user_id = @userId ORDER BY n DESC, maker_name LIMIT @top) AS top_all`,
    ].join(' UNION ALL '),
  );
  const span = db.prepare<{ first_at: number | null; last_at: number | null }>(
    `SELECT (SELECT min(created_at) FROM beverages WHERE user_id = ?) AS first_at,
            (SELECT max(created_at) FROM beverages WHERE user_id = ?) AS last_at`,
  );

  return {
    /** The entries of the span in groups, and the top `top` makers of each type and of all. */
    figures(userId: number, { from, to }: Span, top: number) {
      return cached(`figures ${userId} ${from} ${to} ${top}`, async () => {
        const groups: EntryGroup[] = [];
        const makers: MakerCount[] = [];
        const allTime = from <= ALL_TIME.from && to >= ALL_TIME.to;
        const rows = allTime
          ? [
              ...(await talliedGroups.all({ userId })),
              ...(await talliedMakers.all({ userId, top })),
            ]
          : await figures.all({ userId, from, to, top });
        for (const r of rows) {
          if (r.part === 0) {
            groups.push({
              type: r.f_type!,
              status: r.f_key as BeverageStatus,
              rating: r.f_number,
              inCellar: r.f_cellar === 1,
              subtype: r.f_subtype,
              count: r.f_count,
            });
          } else {
            makers.push({ type: r.f_type, name: r.f_key, count: r.f_number });
          }
        }
        return { groups, makers };
      });
    },

    /**
     * Entries per month and type; `bounds` holds MONTHS + 1 instants, the months' starts and the
     * last one's end. Answers [month index, type, count] for the months that have entries.
     */
    months(userId: number, bounds: number[]): Promise<[number, BeverageType, number][]> {
      if (bounds.length !== MONTHS + 1) throw new TypeError(`months needs ${MONTHS + 1} bounds`);
      const params: Record<string, number> = { userId };
      bounds.forEach((b, i) => (params[`b${i}`] = b));
      return cached(`months ${userId} ${bounds.join(' ')}`, async () =>
        (await months.all(params)).map((r): [number, BeverageType, number] => [r.m, r.type, r.n]),
      );
    },

    bestRated(userId: number, { from, to }: Span, limit: number): Promise<EntryBrief[]> {
      return cached(`best ${userId} ${from} ${to} ${limit}`, () =>
        best.all({ userId, from, to, limit }),
      );
    },

    async firstAndLast(userId: number, { from, to }: Span) {
      const a = await first.get({ userId, from, to });
      const b = await last.get({ userId, from, to });
      return { first: a ?? null, last: b ?? null };
    },

    /** When the owner's first and latest entries were logged; null without entries. */
    async loggedSpan(userId: number): Promise<Span | null> {
      const { first_at: min, last_at: max } = (await span.get(userId, userId))!;
      return min === null || max === null ? null : { from: min, to: max };
    },
  };
}

export type StatsRepository = ReturnType<typeof createStatsRepository>;
