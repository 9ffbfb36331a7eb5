import type Database from 'better-sqlite3';
import type { Beverage } from '../../contract/beverages.ts';
import { otherProcessWrites } from '../db/read-cache.ts';
import type { BeverageRow } from '../db/schema/index.ts';

/** The Beverage fields that depend on the viewer: added by src/beverages/present.ts. */
export type ViewerFields = 'isOwner' | 'ownerName' | 'sharedWithCurrentUser' | 'sharedWith';

/** At most this many entries' JSON is kept (about 10 MB); when full, it starts again. */
const MAX_ENTRIES = 20_000;

/**
 * An entry's fields that do not depend on the viewer, as the API writes them, then the owner's
 * own setting `federated`, last (withoutOwnerFields takes it off for anyone else).
 */
function viewerFreeFields(row: BeverageRow): Omit<Beverage, ViewerFields> {
  return {
    id: row.id,
    userId: row.userId,
    type: row.type,
    name: row.name,
    subtype: row.subtype,
    makerName: row.makerName,
    rating: row.rating,
    notes: row.notes,
    status: row.status,
    inCellar: row.inCellar,
    photoPath: row.photoPath,
    visibility: row.visibility,
    createdAt: row.createdAt.toISOString(),
    federated: row.federated,
  };
}

/** The cached JSON's last member, which only the entry's owner is given. */
const OWNER_MEMBERS = /,"federated":(?:true|false)\}$/;

/** An entry's cached JSON as anyone but its owner gets it: without `federated`. */
export function withoutOwnerFields(json: string): string {
  return json.replace(OWNER_MEMBERS, '}');
}

/**
 * Entries as JSON text, kept between requests. A list page is mostly the same entries every
 * time it is asked for: making a JavaScript object of every column of every row, presenting it
 * and serializing it again was most of a 100-entry page's cost. A page now reads only ids from
 * SQLite and takes each entry's JSON from here; entries not here are read in one statement.
 *
 * The JSON holds only what does not depend on the viewer (src/beverages/present.ts completes
 * it). The repository forgets an entry whenever it writes it; a write by another process (the
 * CLI) empties the cache within 250 ms (src/db/read-cache.ts).
 */
export function createEntryJsonCache(
  sqlite: Database.Database,
  readRows: (ids: number[]) => BeverageRow[],
) {
  const json = new Map<number, string>();
  const othersChanged = otherProcessWrites(sqlite);
  let others = othersChanged();

  return {
    /** The JSON of each entry that still exists, by id. */
    of(ids: number[]): Map<number, string> {
      const now = othersChanged();
      if (now !== others) {
        json.clear();
        others = now;
      }
      const found = new Map<number, string>();
      const missing: number[] = [];
      for (const id of ids) {
        const text = json.get(id);
        if (text === undefined) missing.push(id);
        else found.set(id, text);
      }
      if (missing.length > 0) {
        if (json.size + missing.length > MAX_ENTRIES) json.clear();
        for (const row of readRows(missing)) {
          const text = JSON.stringify(viewerFreeFields(row));
          json.set(row.id, text);
          found.set(row.id, text);
        }
      }
      return found;
    },

    /** An entry was written or deleted. */
    forget(id: number): void {
      json.delete(id);
    },
  };
}

export type EntryJsonCache = ReturnType<typeof createEntryJsonCache>;
