import {
  STATS_TOP,
  YEAR_FAVOURITES,
  type CellarStats,
  type MonthCount,
  type Ranked,
  type ReviewEntry,
  type Stats,
  type StatsBreakdown,
  type StatsSummary,
  type TypeCounts,
  type YearReview,
} from '../../contract/stats.ts';
import { BEVERAGE_TYPES, type BeverageType } from '../../contract/enums.ts';
import { badRequest } from '../domain-error.ts';
import { monthRanges, monthStart, wallClock } from './calendar.ts';
import type { CellarStatsRepository } from './cellar-repository.ts';
import {
  ALL_TIME,
  MONTHS,
  type EntryBrief,
  type EntryGroup,
  type MakerCount,
  type Span,
  type StatsRepository,
} from './repository.ts';

/** The first year a year in review can be asked for. */
export const FIRST_YEAR = 1970;

interface Tally {
  total: number;
  tried: number;
  toTry: number;
  inCellar: number;
  ratingSum: number;
  ratings: number[];
  subtypes: Map<string, number>;
}

const newTally = (): Tally => ({
  total: 0,
  tried: 0,
  toTry: 0,
  inCellar: 0,
  ratingSum: 0,
  ratings: [0, 0, 0, 0, 0, 0],
  subtypes: new Map(),
});

function add(tally: Tally, group: EntryGroup): void {
  const n = group.count;
  tally.total += n;
  if (group.inCellar) tally.inCellar += n;
  if (group.status === 'TRIED') {
    tally.tried += n;
    const rating = Math.min(5, Math.max(0, Math.round(group.rating)));
    tally.ratings[rating]! += n;
    tally.ratingSum += rating * n;
  } else {
    tally.toTry += n;
  }
  tally.subtypes.set(group.subtype, (tally.subtypes.get(group.subtype) ?? 0) + n);
}

/** Most first, ties by name (as the makers' SQL orders them). */
function top(counts: Map<string, number>): Ranked[] {
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, STATS_TOP);
}

function summary(tally: Tally, makers: Ranked[]): StatsSummary {
  return {
    total: tally.total,
    tried: tally.tried,
    toTry: tally.toTry,
    inCellar: tally.inCellar,
    averageRating: tally.tried ? Math.round((tally.ratingSum / tally.tried) * 10) / 10 : null,
    ratings: tally.ratings,
    topSubtypes: top(tally.subtypes),
    topMakers: makers,
  };
}

function breakdown(groups: EntryGroup[], makers: MakerCount[]): StatsBreakdown {
  const all = newTally();
  const byType = { WHISKEY: newTally(), WINE: newTally(), BEER: newTally() };
  for (const group of groups) {
    add(all, group);
    add(byType[group.type], group);
  }
  const makersOf = (type: BeverageType | null) =>
    makers.filter((m) => m.type === type).map(({ name, count }) => ({ name, count }));
  return {
    all: summary(all, makersOf(null)),
    types: {
      WHISKEY: summary(byType.WHISKEY, makersOf('WHISKEY')),
      WINE: summary(byType.WINE, makersOf('WINE')),
      BEER: summary(byType.BEER, makersOf('BEER')),
    },
  };
}

const zeroCounts = (): TypeCounts => ({ WHISKEY: 0, WINE: 0, BEER: 0 });

function reviewEntry(entry: EntryBrief): ReviewEntry {
  return { ...entry, createdAt: new Date(entry.createdAt).toISOString() };
}

export interface StatsServiceDeps {
  repo: StatsRepository;
  cellar: CellarStatsRepository;
  now: () => number;
}

const TYPE_ORDER: Record<BeverageType, number> = { WHISKEY: 0, WINE: 1, BEER: 2 };

/** A signed-in user's figures: only their own entries count (whoever else may see them). */
export function createStatsService({ repo, cellar, now }: StatsServiceDeps) {
  async function figures(userId: number, span: Span): Promise<StatsBreakdown> {
    const { groups, makers } = await repo.figures(userId, span, STATS_TOP);
    return breakdown(groups, makers);
  }

  /** Twelve consecutive months from month `month` (0-11) of `year`, oldest first. */
  async function months(
    userId: number,
    year: number,
    month: number,
    timeZone: string,
  ): Promise<MonthCount[]> {
    const ranges = monthRanges(year, month, MONTHS, timeZone);
    const result = ranges.map((r) => ({ month: r.month, counts: zeroCounts() }));
    const bounds = [...ranges.map((r) => r.from), ranges[MONTHS - 1]!.to];
    for (const [index, type, count] of await repo.months(userId, bounds)) {
      const slot = result[index];
      if (slot && BEVERAGE_TYPES.includes(type)) slot.counts[type] = count;
    }
    return result;
  }

  /**
   * The cellar over twelve months from month `month` of `year`: bottles opened in each, and
   * its size at each month's end, worked back from now (the bottle lines, less what the events
   * since the month's end added) plus the entries 'In cellar' without lines logged by then.
   */
  async function cellarMonths(userId: number, year: number, month: number, timeZone: string) {
    const ranges = monthRanges(year, month, MONTHS, timeZone);
    const raw = await cellar.months(userId, [...ranges.map((r) => r.from), ranges[MONTHS - 1]!.to]);
    let later = raw.changes.reduce((sum, n) => sum + n, 0) - raw.changes[0]!;
    let lineless = 0;
    const size = ranges.map((r, i) => {
      later -= i === 0 ? 0 : raw.changes[i]!;
      lineless += raw.lineless[i]!;
      return { month: r.month, bottles: Math.max(0, raw.bottlesNow - later + lineless) };
    });
    const valueByType = raw.value
      .map(({ type, currency, minor }) => ({ type, currency, amount: Math.round(minor) / 100 }))
      .sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || b.amount - a.amount);
    const result: CellarStats = {
      opened: ranges.map((r, i) => ({ month: r.month, bottles: raw.opened[i]! })),
      size,
      valueByType,
    };
    return result;
  }

  /** The years from the first entry's to the latest one's, newest first. */
  async function years(userId: number, timeZone: string): Promise<number[]> {
    const span = await repo.loggedSpan(userId);
    if (!span) return [];
    const first = wallClock(span.from, timeZone).year;
    const last = wallClock(span.to, timeZone).year;
    return Array.from({ length: last - first + 1 }, (_, i) => last - i);
  }

  return {
    /** GET /stats: every entry, and the last twelve months up to the current one. */
    async overview(userId: number, timeZone: string): Promise<Stats> {
      const today = wallClock(now(), timeZone);
      return {
        ...(await figures(userId, ALL_TIME)),
        timeZone,
        months: await months(userId, today.year, today.month - (MONTHS - 1), timeZone),
        years: await years(userId, timeZone),
        cellar: await cellarMonths(userId, today.year, today.month - (MONTHS - 1), timeZone),
      };
    },

    /** GET /stats/years/{year}: the entries logged in a calendar year up to this one. */
    async yearReview(userId: number, year: number, timeZone: string): Promise<YearReview> {
      const thisYear = wallClock(now(), timeZone).year;
      if (!Number.isInteger(year) || year < FIRST_YEAR || year > thisYear) {
        throw badRequest(`The year must be from ${FIRST_YEAR} to ${thisYear}`);
      }
      const span = { from: monthStart(year, 0, timeZone), to: monthStart(year + 1, 0, timeZone) };
      const { first, last } = await repo.firstAndLast(userId, span);
      return {
        ...(await figures(userId, span)),
        year,
        timeZone,
        months: await months(userId, year, 0, timeZone),
        favourites: (await repo.bestRated(userId, span, YEAR_FAVOURITES)).map(reviewEntry),
        first: first && reviewEntry(first),
        last: last && reviewEntry(last),
        years: await years(userId, timeZone),
      };
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;
