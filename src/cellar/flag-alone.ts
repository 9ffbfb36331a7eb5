/**
 * The cellar's one-bottle rule, stated once for the statements that count bottles (the figures
 * of GET /cellar, the statistics' cellar size): an entry 'In cellar' without bottle lines holds
 * one bottle if it never had any, so that a cellar kept with the flag alone has its figures; one
 * whose bottles were all opened or taken off (kept 'In cellar' by choice) holds none. Whether an
 * entry had bottle lines is told by its bottle events, which outlive the lines.
 */

/**
 * SQL true when the entry `alias` (its owner `userId`, an SQL literal or parameter) has had
 * bottle lines. The owner's events are read once per statement, not once per entry.
 */
export function hadBottlesSql(alias: string, userId: string): string {
  return `${alias}.id IN (SELECT beverage_id FROM bottle_events
    WHERE user_id = ${userId} AND beverage_id IS NOT NULL)`;
}
