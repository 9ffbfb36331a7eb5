import type { Database } from '../db/database.ts';
import type { BeverageType } from '../../contract/enums.ts';
import { hadBottlesSql } from '../cellar/flag-alone.ts';
import { createReadCache } from '../db/read-cache.ts';
import { MONTHS } from './repository.ts';

/**
 * The statistics' reads of the cellar: bottle events (src/db/schema/cellar.ts), bottle lines and
 * the entries 'In cellar' without any, in one statement over the owner's rows (through
 * bottle_events_user_at_idx, bottles_user_place_idx and beverages_user_cellar_idx), memoized
 * until the database changes.
 *
 * Months are given as MONTHS + 1 instants (`b0`…`b12`: the months' starts and the last one's
 * end); a row's month index is the month its instant falls in, 0 for earlier and MONTHS for
 * later ones.
 */
export interface CellarMonthsRaw {
  /** Bottles opened in month i (i < MONTHS). */
  opened: number[];
  /** The bottle events' changes in month i (i ≤ MONTHS: MONTHS holds those after the last). */
  changes: number[];
  /**
   * Entries 'In cellar' that hold one bottle by their flag alone (src/cellar/flag-alone.ts),
   * logged in month i (0: that month or before).
   */
  lineless: number[];
  /** The bottles of the lines now. */
  bottlesNow: number;
  /** The summed price of the lines now, per type and currency, in minor units. */
  value: { type: BeverageType; currency: string; minor: number }[];
}

export function createCellarStatsRepository(db: Database, options: { now?: () => number } = {}) {
  const memo = createReadCache<string, CellarMonthsRaw>(db, { maxEntries: 100, ...options });
  const monthOf = (column: string) =>
    `CASE ${Array.from({ length: MONTHS }, (_, i) => `WHEN ${column} < @b${i + 1} THEN ${i}`).join(' ')} ELSE ${MONTHS} END`;
  const statement = db.prepare<{
    part: number;
    key: number;
    type: BeverageType | null;
    currency: string | null;
    n: number;
  }>(
    `SELECT 0 AS part, ${monthOf('at')} AS key, NULL AS type, NULL AS currency, count(*) AS n
         FROM bottle_events
         WHERE user_id = @userId AND kind = 'OPENED' AND at >= @b0 AND at < @b${MONTHS}
         GROUP BY 2
       UNION ALL
       SELECT 1, ${monthOf('at')}, NULL, NULL, sum(change) FROM bottle_events
         WHERE user_id = @userId AND at >= @b1 GROUP BY 2
       UNION ALL
       SELECT 2, ${monthOf('created_at')}, NULL, NULL, count(*) FROM beverages b
         WHERE user_id = @userId AND in_cellar = 1
           AND NOT EXISTS (SELECT 1 FROM bottles l WHERE l.beverage_id = b.id)
           AND NOT ${hadBottlesSql('b', '@userId')}
         GROUP BY 2
       UNION ALL
       SELECT 3, 0, NULL, NULL, coalesce(sum(quantity), 0) FROM bottles WHERE user_id = @userId
       UNION ALL
       SELECT 4, 0, e.type, l.currency, sum(l.price_minor * l.quantity)
         FROM bottles l JOIN beverages e ON e.id = l.beverage_id
         WHERE l.user_id = @userId AND l.price_minor IS NOT NULL AND l.currency IS NOT NULL
         GROUP BY e.type, l.currency`,
  );

  return {
    /** The cellar's figures for the months `bounds` delimits (MONTHS + 1 instants). */
    async months(userId: number, bounds: number[]): Promise<CellarMonthsRaw> {
      if (bounds.length !== MONTHS + 1) throw new TypeError(`months needs ${MONTHS + 1} bounds`);
      return (await memo.get(`${userId} ${bounds.join(' ')}`, async () => {
        const params: Record<string, number> = { userId };
        bounds.forEach((b, i) => (params[`b${i}`] = b));
        const result: CellarMonthsRaw = {
          opened: new Array<number>(MONTHS).fill(0),
          changes: new Array<number>(MONTHS + 1).fill(0),
          lineless: new Array<number>(MONTHS + 1).fill(0),
          bottlesNow: 0,
          value: [],
        };
        const rows = await statement.all(params);
        for (const { part: kind, key, type, currency, n } of rows) {
          if (kind === 0) result.opened[key] = n;
          else if (kind === 1) result.changes[key] = n;
          else if (kind === 2) result.lineless[key] = n;
          else if (kind === 3) result.bottlesNow = n;
          else result.value.push({ type: type!, currency: currency!, minor: n });
        }
        return result;
      }))!;
    },
  };
}

export type CellarStatsRepository = ReturnType<typeof createCellarStatsRepository>;
