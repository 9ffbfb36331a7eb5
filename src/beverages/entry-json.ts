import type { Database } from '../db/database.ts';
import { otherProcessWrites } from '../db/read-cache.ts';
import { ownerMembers, publicFields, type CountedRow } from './entry-fields.ts';

/** At most this many entries' JSON is kept (about 10 MB); when full, it starts again. */
const MAX_ENTRIES = 20_000;

/**
 * An entry's cached JSON, in two parts kept apart: `publicJson`, one complete object of the
 * fields anyone who may see the entry gets alike (src/beverages/entry-fields.ts), and
 * `ownerMembers`, the owner-only fields as members to add for the owner alone.
 */
export interface EntryJson {
  publicJson: string;
  ownerMembers: string;
}

/** A listed entry's JSON until the repository adds it. */
export const NO_JSON: EntryJson = { publicJson: '{}', ownerMembers: '' };

/**
 * Entries as JSON text, kept between requests. A list page is mostly the same entries every
 * time it is asked for: making a JavaScript object of every column of every row, presenting it
 * and serializing it again was most of a 100-entry page's cost. A page now reads only ids from
 * SQLite and takes each entry's JSON from here; entries not here are read in one statement.
 *
 * The JSON holds only what does not depend on the viewer, and the owner-only fields apart from
 * the rest (src/beverages/present.ts completes it for the viewer). The repository forgets an entry whenever it writes it; a write by another process (the
 * CLI) empties the cache within 250 ms (src/db/read-cache.ts).
 */
export function createEntryJsonCache(
  db: Database,
  readRows: (ids: number[]) => Promise<CountedRow[]>,
) {
  const json = new Map<number, EntryJson>();
  const othersChanged = otherProcessWrites(db);
  let others = othersChanged();
  // Counts forgets: JSON read while an entry was written is answered but not kept.
  let forgets = 0;

  return {
    /** The JSON of each entry that still exists, by id. */
    async of(ids: number[]): Promise<Map<number, EntryJson>> {
      const now = othersChanged();
      if (now !== others) {
        json.clear();
        others = now;
      }
      const found = new Map<number, EntryJson>();
      const missing: number[] = [];
      for (const id of ids) {
        const text = json.get(id);
        if (text === undefined) missing.push(id);
        else found.set(id, text);
      }
      if (missing.length > 0) {
        const before = forgets;
        const rows = await readRows(missing);
        const keep = forgets === before;
        if (keep && json.size + missing.length > MAX_ENTRIES) json.clear();
        for (const row of rows) {
          const text = {
            publicJson: JSON.stringify(publicFields(row)),
            ownerMembers: ownerMembers(row),
          };
          if (keep) json.set(row.id, text);
          found.set(row.id, text);
        }
      }
      return found;
    },

    /** An entry was written or deleted, or its bottles changed (its owner's bottleCount). */
    forget(id: number): void {
      forgets++;
      json.delete(id);
    },
  };
}

export type EntryJsonCache = ReturnType<typeof createEntryJsonCache>;
