// How the statistics name months, types and ratings.
import type { BeverageType } from '../api/types.ts';
import { BEVERAGE_KINDS } from '../beverages.ts';

export const TYPES: readonly BeverageType[] = ['WHISKEY', 'WINE', 'BEER'];

export const typeLabel = (type: BeverageType) => BEVERAGE_KINDS[type].label;

const monthDate = (month: string) => {
  const [year, m] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, m! - 1, 1));
};

const shortMonth = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });
const longMonth = new Intl.DateTimeFormat('en-GB', {
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const monthOnly = new Intl.DateTimeFormat('en-GB', { month: 'long', timeZone: 'UTC' });

/** 'Aug' for '2025-08' (a chart's axis). */
export const monthShort = (month: string) => shortMonth.format(monthDate(month));
/** 'August 2025' for '2025-08'. */
export const monthLong = (month: string) => longMonth.format(monthDate(month));
/** 'August' for '2025-08'. */
export const monthName = (month: string) => monthOnly.format(monthDate(month));

/** '2 January 2025' in the time zone the figures were counted in. */
export function dayOf(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone }).format(new Date(iso));
}

export const ratingLabel = (rating: number) => `${rating} ${rating === 1 ? 'star' : 'stars'}`;

export const entriesLabel = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;
