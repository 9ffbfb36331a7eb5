/**
 * The place filter of entry lists (GET /beverages?placeId): the entries with a bottle in one of
 * the owner's places or in a place inside it. Bottles and places are their owner's alone, so
 * only the owner's entries can match, and a place of someone else's holds nothing.
 */

function integer(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new TypeError(`${what} must be an integer`);
  return value;
}

/** The place and every place inside it, as a SELECT of ids (`owner` and `place` are SQL). */
function treeSql(owner: string, place: string): string {
  return `WITH RECURSIVE tree(id) AS (
      SELECT id FROM places WHERE id = ${place} AND user_id = ${owner}
      UNION SELECT p.id FROM places p JOIN tree ON p.parent_id = tree.id)
    SELECT id FROM tree`;
}

/** The entries with a bottle in the place, as a SELECT of their ids. */
function entriesSql(owner: string, place: string): string {
  return `SELECT beverage_id FROM bottles WHERE user_id = ${owner}
    AND place_id IN (${treeSql(owner, place)})`;
}

/**
 * The filter as an SQL condition over beverages' `id`, the owner and place written in as
 * literals (validated integers), as the list statements' other filters are.
 */
export function placeSql(filter: PlaceFilter): string {
  const owner = String(integer(filter.ownerId, 'ownerId'));
  const place = String(integer(filter.placeId, 'placeId'));
  return `id IN (${entriesSql(owner, place)})`;
}

/** The same entries as a statement of its own, the owner and place bound (@ownerId, @placeId). */
export const ENTRIES_IN_PLACE_SQL = entriesSql('@ownerId', '@placeId');

/** Entries with a bottle in a place of their owner's (or a place inside it). */
export interface PlaceFilter {
  ownerId: number;
  placeId: number;
}

/** The part of a cached statement's key that a place filter makes: '' without one. */
export function placeKey(filter: PlaceFilter | undefined): string {
  return filter ? `p${filter.ownerId}/${filter.placeId}` : '';
}
