import type { ShareUser } from '../../contract/beverages.ts';
import { and, eq, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { createReadCache } from '../db/read-cache.ts';
import { createEntryJsonCache } from './entry-json.ts';
import { createListStatements } from './list-statements.ts';
import { createSearchIndex, searchWords } from './search-index.ts';
import {
  beverages,
  users,
  type BeverageRow,
  type BeverageStatus,
  type BeverageType,
} from '../db/schema/index.ts';

export interface BeverageFilter {
  userId: number;
  type?: BeverageType;
  status?: BeverageStatus;
  inCellar?: boolean;
  /**
   * Words that must each occur in the name, subtype, maker or notes: substrings, in any case,
   * with or without accents.
   */
  q?: string;
  /** Keyset paging: only entries older than this position (newest-first order). */
  before?: ListPosition;
  limit: number;
}

/** A position in the newest-first order of entries. */
export interface ListPosition {
  createdAt: number;
  id: number;
}

/** An entry with its owner's display name. */
export type BeverageWithOwner = BeverageRow & { ownerName: string };

/**
 * An entry as one viewer has it: `shared` when it is another user's entry shared with the
 * viewer and added to their vault (the list they chose, when); `sharedWith` when the viewer may
 * see whom it is shared with (the owner and admins, src/visibility/policy.ts).
 */
export type EntryView = BeverageWithOwner & {
  shared?: { id: number; listStatus: BeverageStatus; acceptedAt: number } | undefined;
  sharedWith?: ShareUser[] | undefined;
};

/**
 * An entry of a list page: `json` holds the contract's Beverage fields that do not depend on
 * the viewer, as one JSON object (src/beverages/entry-json.ts); beside it, what the list needs
 * to page, merge and check it (`at`: when it was logged, in ms). src/beverages/present.ts
 * completes it for a viewer.
 */
export interface ListedEntry {
  id: number;
  userId: number;
  at: number;
  json: string;
  ownerName: string;
  sharedWith?: ShareUser[] | undefined;
}

export type NewBeverage = Omit<BeverageRow, 'id'>;
export type BeverageChanges = Partial<Omit<BeverageRow, 'id' | 'userId' | 'createdAt'>>;

const withOwner = { ...tableColumns(), ownerName: users.fullName };

function tableColumns() {
  const { id, userId, type, name, subtype, makerName, rating, notes, status, inCellar } = beverages;
  const { photoPath, createdAt, updatedAt } = beverages;
  return {
    id,
    userId,
    type,
    name,
    subtype,
    makerName,
    rating,
    notes,
    status,
    inCellar,
    photoPath,
    createdAt,
    updatedAt,
  };
}

/** Data access for entries: the only place that queries beverages. */
export function createBeverageRepository(db: Db) {
  const lists = createListStatements(db.$client);
  const search = createSearchIndex(db.$client);
  const entryJson = createEntryJsonCache(db.$client, lists.byIds);
  const ownerNames = createReadCache<number, string>(db.$client);
  const ownerNameOf = db
    .select({ fullName: users.fullName })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare();
  const byId = db
    .select(withOwner)
    .from(beverages)
    .innerJoin(users, eq(users.id, beverages.userId))
    .where(eq(beverages.id, sql.placeholder('id')))
    .prepare();
  const insertOne = db
    .insert(beverages)
    .values({
      userId: sql.placeholder('userId'),
      type: sql.placeholder('type'),
      name: sql.placeholder('name'),
      subtype: sql.placeholder('subtype'),
      makerName: sql.placeholder('makerName'),
      rating: sql.placeholder('rating'),
      notes: sql.placeholder('notes'),
      status: sql.placeholder('status'),
      inCellar: sql.placeholder('inCellar'),
      photoPath: sql.placeholder('photoPath'),
      createdAt: sql.placeholder('createdAt'),
      updatedAt: sql.placeholder('updatedAt'),
    })
    .returning()
    .prepare();
  return {
    insert(values: NewBeverage): BeverageRow {
      const row = insertOne.get(values);
      entryJson.forget(row.id);
      search.changed();
      return row;
    },

    findById(id: number): BeverageWithOwner | undefined {
      return byId.get({ id });
    },

    /**
     * Newest first, at most `limit`. With search words, the owner's in-memory search index
     * finds the page (src/beverages/search-index.ts); without, a cached prepared statement
     * (src/beverages/list-statements.ts).
     */
    list(filter: BeverageFilter): ListedEntry[] {
      const words = searchWords(filter.q);
      const rows: ListedEntry[] =
        words.length > 0
          ? search
              .search(filter, words)
              .map(({ id, at }) => ({ id, userId: filter.userId, at, json: '', ownerName: '' }))
          : lists.list(filter);
      if (rows.length === 0) return [];
      const ownerName =
        ownerNames.get(filter.userId, (id) => ownerNameOf.get({ id })?.fullName) ?? '';
      const texts = entryJson.of(rows.map((row) => row.id));
      return rows.filter((row) => {
        const json = texts.get(row.id);
        if (json === undefined) return false; // deleted since the page was read
        row.json = json;
        row.ownerName = ownerName;
        return true;
      });
    },

    update(id: number, changes: BeverageChanges): BeverageRow | undefined {
      const row = db.update(beverages).set(changes).where(eq(beverages.id, id)).returning().get();
      entryJson.forget(id);
      search.changed();
      return row;
    },

    delete(id: number): boolean {
      const deleted = db.delete(beverages).where(eq(beverages.id, id)).run().changes > 0;
      entryJson.forget(id);
      search.changed();
      return deleted;
    },

    /** Stored photo paths of a user's entries (to delete files with the account). */
    photoPathsOf(userId: number): string[] {
      return db
        .select({ photoPath: beverages.photoPath })
        .from(beverages)
        .where(and(eq(beverages.userId, userId), sql`${beverages.photoPath} is not null`))
        .all()
        .map((r) => r.photoPath!);
    },

    /** The entry a stored photo path belongs to (a scan: the visibility policy asks rarely). */
    ownerOfPhoto(photoPath: string): { id: number; userId: number } | undefined {
      return db
        .select({ id: beverages.id, userId: beverages.userId })
        .from(beverages)
        .where(eq(beverages.photoPath, photoPath))
        .get();
    },

    /** Every stored photo path, for the uploads sweep (src/media/sweep.ts). */
    allPhotoPaths(): string[] {
      return db
        .select({ photoPath: beverages.photoPath })
        .from(beverages)
        .where(sql`${beverages.photoPath} is not null`)
        .all()
        .map((r) => r.photoPath!);
    },
  };
}

export type BeverageRepository = ReturnType<typeof createBeverageRepository>;
