/**
 * The statistics' calls: GET /stats and GET /stats/years/{year}, through the one API module's
 * `request` (so the API contract's error rules hold), with the browser's time zone so that
 * months and years are the user's own. Shapes from contract/stats.ts, as types only.
 */
import { ApiError, INVALID_RESPONSE, request } from '../api/client.ts';
import type { Stats, YearReview } from '../../../contract/stats.ts';

export type {
  MonthCount,
  Ranked,
  ReviewEntry,
  Stats,
  StatsSummary,
  TypeCounts,
  YearReview,
} from '../../../contract/stats.ts';

/** The browser's IANA time zone ('Europe/Paris'), or UTC when it names none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function hasFigures(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'all' in data && 'months' in data;
}

export async function fetchStats(timeZone: string, signal?: AbortSignal): Promise<Stats> {
  const data = await request('/stats', { query: { tz: timeZone }, signal });
  if (!hasFigures(data)) throw new ApiError(INVALID_RESPONSE, 200);
  return data as Stats;
}

export async function fetchYearReview(
  year: string,
  timeZone: string,
  signal?: AbortSignal,
): Promise<YearReview> {
  const data = await request(`/stats/years/${encodeURIComponent(year)}`, {
    query: { tz: timeZone },
    signal,
  });
  if (!hasFigures(data)) throw new ApiError(INVALID_RESPONSE, 200);
  return data as YearReview;
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
