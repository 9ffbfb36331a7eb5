/**
 * The statistics' calls: GET /stats and GET /stats/years/{year}, typed from the route table
 * (../api/call.ts), with the browser's time zone so that months and years are the user's own.
 * Shapes from contract/stats.ts, as types only.
 */
import { call } from '../api/call.ts';
import type { Stats, YearReview } from '../../../contract/stats.ts';

export type {
  CellarStats,
  MonthCount,
  Ranked,
  ReviewEntry,
  Stats,
  StatsSummary,
  TypeCounts,
  TypeValue,
  YearReview,
} from '../../../contract/stats.ts';

/** The browser's IANA time zone ('Europe/Paris'), or UTC when it names none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function fetchStats(timeZone: string, signal?: AbortSignal): Promise<Stats> {
  return call('GET /stats', { query: { tz: timeZone }, signal });
}

export function fetchYearReview(
  year: string,
  timeZone: string,
  signal?: AbortSignal,
): Promise<YearReview> {
  return call('GET /stats/years/{year}', { params: { year }, query: { tz: timeZone }, signal });
}

/**
 * Query keys under 'beverages': a change to any entry invalidates every key under it
 * (web/src/vault/list-cache.ts refetches beverages queries that are not lists), so the figures
 * follow the vault without their own bookkeeping.
 */
export const statsKeys = {
  overview: (timeZone: string) => ['beverages', 'stats', timeZone] as const,
  year: (year: string, timeZone: string) => ['beverages', 'stats-year', year, timeZone] as const,
};
