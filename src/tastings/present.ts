import type { Tasting } from '../../contract/tastings.ts';
import type { TastingRow } from '../db/schema/index.ts';

/** A tasting as the API answers it. */
export function presentTasting(row: TastingRow): Tasting {
  return {
    id: row.id,
    beverageId: row.beverageId,
    tastedOn: row.tastedOn,
    rating: row.rating,
    notes: row.notes,
    photoPath: row.photoPath,
    vintage: row.vintage,
    opened: row.opened,
    createdAt: row.createdAt.toISOString(),
  };
}
