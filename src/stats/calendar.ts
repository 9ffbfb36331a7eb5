/**
 * Calendar months and years in an IANA time zone, as instants (ms since the epoch), so that the
 * statistics count entries by the month they were logged in where the user lives, daylight
 * saving included, with plain range conditions on `created_at` in SQL.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 100;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock date and time in the zone at an instant. */
export function wallClock(instant: number, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    /** 0 to 11 */
    month: parts.month! - 1,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant at which month `month` (0-11, may overflow into other years) of `year` begins. */
export function monthStart(year: number, month: number, timeZone: string): number {
  const wall = Date.UTC(year, month, 1);
  let instant = wall - offsetAt(wall, timeZone);
  // A second pass settles a guess that landed on the other side of an offset change.
  instant = wall - offsetAt(instant, timeZone);
  return instant;
}

/** 'YYYY-MM' of month `month` (0-11, may overflow) of `year`. */
export function monthLabel(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A calendar month: its label and its instants [from, to). */
export interface MonthRange {
  month: string;
  from: number;
  to: number;
}

/** `count` consecutive months starting with month `month` (0-11) of `year`. */
export function monthRanges(
  year: number,
  month: number,
  count: number,
  timeZone: string,
): MonthRange[] {
  const starts = Array.from({ length: count + 1 }, (_, i) => monthStart(year, month + i, timeZone));
  return starts.slice(0, count).map((from, i) => ({
    month: monthLabel(year, month + i),
    from,
    to: starts[i + 1]!,
  }));
}
