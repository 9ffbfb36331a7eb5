import type Database from 'better-sqlite3';
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

const BRIEF = 'id, type, name, subtype, maker_name, rating, status, created_at';
type BriefRaw = [number, BeverageType, string, string, string, number, BeverageStatus, number];

type GroupRaw = [BeverageType, BeverageStatus, number, number, string, number];
type MakerRaw = [BeverageType | null, string, number];

function toBrief(r: BriefRaw): EntryBrief {
  return {
    id: r[0],
    type: r[1],
    name: r[2],
    subtype: r[3],
    makerName: r[4],
    rating: r[5],
    status: r[6],
    createdAt: r[7],
  };
}

/**
 * The statistics' reads of `beverages`: aggregates over one owner's entries, each one pass over
 * that owner's rows through the (user_id, …) indexes, so their cost grows with the owner's
 * entries only. Nothing here writes.
 *
 * The two aggregates that read every row (groups and makers: about 20 ms each for 20,000
 * entries, most of it SQLite sorting the rows into groups) are memoized until the database
 * changes (src/db/read-cache.ts): looking at the statistics again, or switching between them
 * and a year, costs nothing until something is written.
 */
export function createStatsRepository(
  sqlite: Database.Database,
  options: { now?: () => number } = {},
) {
  const memo = createReadCache<string, unknown>(sqlite, { maxEntries: 200, ...options });
  const cached = <T>(key: string, read: () => T): T => memo.get(key, read) as T;
  const range = 'user_id = ? AND created_at >= ? AND created_at < ?';
  const groups = sqlite
    .prepare(
      `SELECT type, status, rating, in_cellar, subtype, count(*)
       FROM beverages WHERE ${range}
       GROUP BY type, status, rating, in_cellar, subtype`,
    )
    .raw();
  // The top makers of each type, and of every type together (type NULL).
  const makers = sqlite
    .prepare(
      `WITH m AS (
         SELECT type, maker_name AS name, count(*) AS n FROM beverages
         WHERE ${range} AND maker_name <> '' GROUP BY type, maker_name)
       SELECT type, name, n FROM (
         SELECT type, name, n, row_number() OVER (PARTITION BY type ORDER BY n DESC, name) AS r
         FROM m)
       WHERE r <= ?
       UNION ALL
       SELECT * FROM (
         SELECT NULL, name, sum(n) AS total FROM m GROUP BY name ORDER BY total DESC, name LIMIT ?)`,
    )
    .raw();
  // One pass over the span: each entry falls in the month whose start it is past last. The IN
  // lists let SQLite read (user_id, type, status, created_at) ranges alone, never the rows.
  const monthCase = Array.from(
    { length: MONTHS - 1 },
    (_, i) => `WHEN created_at < @b${i + 1} THEN ${i}`,
  ).join(' ');
  const inList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
  const months = sqlite
    .prepare(
      `SELECT CASE ${monthCase} ELSE ${MONTHS - 1} END AS m, type, count(*)
       FROM beverages
       WHERE user_id = @userId AND type IN (${inList(BEVERAGE_TYPES)})
         AND status IN (${inList(BEVERAGE_STATUSES)})
         AND created_at >= @b0 AND created_at < @b${MONTHS}
       GROUP BY m, type`,
    )
    .raw();
  const best = sqlite
    .prepare(
      `SELECT ${BRIEF} FROM beverages WHERE ${range} AND status = 'TRIED'
       ORDER BY rating DESC, created_at DESC, id DESC LIMIT ?`,
    )
    .raw();
  const first = sqlite
    .prepare(`SELECT ${BRIEF} FROM beverages WHERE ${range} ORDER BY created_at, id LIMIT 1`)
    .raw();
  const last = sqlite
    .prepare(
      `SELECT ${BRIEF} FROM beverages WHERE ${range} ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
    .raw();
  const span = sqlite
    .prepare(
      `SELECT (SELECT min(created_at) FROM beverages WHERE user_id = ?),
              (SELECT max(created_at) FROM beverages WHERE user_id = ?)`,
    )
    .raw();

  return {
    groups(userId: number, { from, to }: Span): EntryGroup[] {
      return cached(`groups ${userId} ${from} ${to}`, () =>
        (groups.all(userId, from, to) as GroupRaw[]).map((r) => ({
          type: r[0],
          status: r[1],
          rating: r[2],
          inCellar: r[3] === 1,
          subtype: r[4],
          count: r[5],
        })),
      );
    },

    topMakers(userId: number, { from, to }: Span, top: number): MakerCount[] {
      return cached(`makers ${userId} ${from} ${to} ${top}`, () =>
        (makers.all(userId, from, to, top, top) as MakerRaw[]).map((r) => ({
          type: r[0],
          name: r[1],
          count: r[2],
        })),
      );
    },

    /**
     * Entries per month and type; `bounds` holds MONTHS + 1 instants, the months' starts and the
     * last one's end. Answers [month index, type, count] for the months that have entries.
     */
    months(userId: number, bounds: number[]): [number, BeverageType, number][] {
      if (bounds.length !== MONTHS + 1) throw new TypeError(`months needs ${MONTHS + 1} bounds`);
      const params: Record<string, number> = { userId };
      bounds.forEach((b, i) => (params[`b${i}`] = b));
      return cached(`months ${userId} ${bounds.join(' ')}`, () => months.all(params)) as [
        number,
        BeverageType,
        number,
      ][];
    },

    bestRated(userId: number, { from, to }: Span, limit: number): EntryBrief[] {
      return (best.all(userId, from, to, limit) as BriefRaw[]).map(toBrief);
    },

    firstAndLast(userId: number, { from, to }: Span) {
      const a = first.get(userId, from, to) as BriefRaw | undefined;
      const b = last.get(userId, from, to) as BriefRaw | undefined;
      return { first: a ? toBrief(a) : null, last: b ? toBrief(b) : null };
    },

    /** When the owner's first and latest entries were logged; null without entries. */
    loggedSpan(userId: number): Span | null {
      const [min, max] = span.get(userId, userId) as [number | null, number | null];
      return min === null || max === null ? null : { from: min, to: max };
    },
  };
}

export type StatsRepository = ReturnType<typeof createStatsRepository>;
