import { DRINK_WINDOWS, type DrinkWindow } from '../../contract/cellar.ts';

/**
 * The drinking window rule, stated once: judged by a year (the server clock's, UTC),
 *   NOW   inside [drinkFrom, drinkUntil], with at least one bound set (an open bound is unbounded);
 *   PAST  drinkUntil before the year;
 *   LATER drinkFrom after the year.
 * An entry without a window is in none of the three. `inWindow` is the rule in JavaScript,
 * `windowSql` the same rule in SQL for the statements that filter on it.
 */

const KINDS = new Set<string>(DRINK_WINDOWS);

export function inWindow(
  kind: DrinkWindow,
  year: number,
  from: number | null,
  until: number | null,
): boolean {
  if (kind === 'PAST') return until !== null && until < year;
  if (kind === 'LATER') return from !== null && from > year;
  return (
    (from !== null || until !== null) &&
    (from === null || from <= year) &&
    (until === null || until >= year)
  );
}

/**
 * The rule as an SQL condition over the columns drink_from and drink_until of `table` (an alias
 * with its dot, or ''). The year is written in as a literal: a validated integer, so that the
 * statement's key (which holds it) changes with it and no cached statement or page outlives it.
 */
export function windowSql(kind: DrinkWindow, year: number, table = ''): string {
  if (!KINDS.has(kind)) throw new TypeError('unknown drinking window');
  if (!Number.isSafeInteger(year)) throw new TypeError('year must be an integer');
  const from = `${table}drink_from`;
  const until = `${table}drink_until`;
  if (kind === 'PAST') return `${until} < ${year}`;
  if (kind === 'LATER') return `${from} > ${year}`;
  return `(${from} is not null or ${until} is not null)
    and coalesce(${from}, ${year}) <= ${year} and coalesce(${until}, ${year}) >= ${year}`;
}

/** The part of a cached statement's key that a window filter makes: '' without one. */
export function windowKey(window: { kind: DrinkWindow; year: number } | undefined): string {
  return window ? `${window.kind}${window.year}` : '';
}
