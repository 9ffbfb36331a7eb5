import type { ShareUser } from '../../contract/beverages.ts';
import type { DrinkWindow } from '../../contract/cellar.ts';
import type { EntryScope } from '../visibility/policy.ts';
import { and, eq, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { createReadCache } from '../db/read-cache.ts';
import type { CountedRow } from './entry-fields.ts';
import { createEntryJsonCache, NO_JSON, type EntryJson } from './entry-json.ts';
import { createListStatements } from './list-statements.ts';
import type { PlaceFilter } from './place-filter.ts';
import { createSearchIndex, searchWords } from './search-index.ts';
import {
  beverages,
  users,
  type BeverageRow,
  type BeverageStatus,
  type BeverageType,
  type Visibility,
} from '../db/schema/index.ts';

export interface BeverageFilter {
  userId: number;
  type?: BeverageType;
  status?: BeverageStatus;
  inCellar?: boolean;
  /** Only entries inside, past or before their drinking window in `year` (windowFilter). */
  window?: WindowFilter | undefined;
  /** Only entries with a bottle in the place or a place inside it (src/beverages/place-filter.ts). */
  place?: PlaceFilter | undefined;
  /**
   * Words that must each occur in the name, subtype, maker or notes: substrings, in any case,
   * with or without accents.
   */
  q?: string;
  /** Another user's list: only the entries the viewer may see (src/visibility/policy.ts). */
  scope?: EntryScope | undefined;
  /** Keyset paging: only entries older than this position (newest-first order). */
  before?: ListPosition;
  limit: number;
}

/** A drinking window as a filter: which side of it, judged by which year. */
export interface WindowFilter {
  kind: DrinkWindow;
  year: number;
}

/** A position in the newest-first order of entries. */
export interface ListPosition {
  createdAt: number;
  id: number;
}

/** An entry with its owner's display name and its bottle count (owner-only: entry-fields.ts). */
export type BeverageWithOwner = CountedRow & { ownerName: string };

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
 * the viewer, the owner-only ones apart (src/beverages/entry-json.ts); beside it, what the list needs
 * to page, merge and check it (`at`: when it was logged, in ms). src/beverages/present.ts
 * completes it for a viewer.
 */
export interface ListedEntry {
  id: number;
  userId: number;
  at: number;
  json: EntryJson;
  ownerName: string;
  sharedWith?: ShareUser[] | undefined;
}

/** A new entry; without a visibility it is MEMBERS and federated (the columns' defaults). */
export type NewBeverage = Omit<
  BeverageRow,
  'id' | 'visibility' | 'federated' | 'drinkFrom' | 'drinkUntil'
> &
  Partial<Pick<BeverageRow, 'visibility' | 'federated' | 'drinkFrom' | 'drinkUntil'>>;

/** Which of a user's entries a change of visibility applies to: ids, or every one matching. */
export type EntrySelection =
  | { ids: number[] }
  | { all: { type?: BeverageType | undefined; status?: BeverageStatus | undefined } };
export type BeverageChanges = Partial<Omit<BeverageRow, 'id' | 'userId' | 'createdAt'>>;

const withOwner = {
  ...tableColumns(),
  ownerName: users.fullName,
  bottleCount: sql<number>`(select coalesce(sum(quantity), 0) from bottles
    where bottles.beverage_id = ${beverages.id})`.mapWith(Number),
  tastingCount: sql<number>`(select count(*) from tastings
    where tastings.beverage_id = ${beverages.id})`.mapWith(Number),
};

function tableColumns() {
  const { id, userId, type, name, subtype, makerName, rating, notes, status, inCellar } = beverages;
  const { photoPath, visibility, federated, createdAt, updatedAt, drinkFrom, drinkUntil } =
    beverages;
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
    visibility,
    federated,
    createdAt,
    updatedAt,
    drinkFrom,
    drinkUntil,
  };
}

/** `id in (…)`, the ids bound as one JSON array. */
function idIn(ids: number[]) {
  return sql`${beverages.id} in (select value from json_each(${JSON.stringify(ids)}))`;
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
  const photoOwner = db
    .select({ id: beverages.id, userId: beverages.userId, visibility: beverages.visibility })
    .from(beverages)
    .where(eq(beverages.photoPath, sql.placeholder('photoPath')))
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
      visibility: sql.placeholder('visibility'),
      federated: sql.placeholder('federated'),
      drinkFrom: sql.placeholder('drinkFrom'),
      drinkUntil: sql.placeholder('drinkUntil'),
      createdAt: sql.placeholder('createdAt'),
      updatedAt: sql.placeholder('updatedAt'),
    })
    .returning()
    .prepare();
  return {
    insert(values: NewBeverage): BeverageRow {
      const row = insertOne.get({
        visibility: 'MEMBERS',
        federated: true,
        drinkFrom: null,
        drinkUntil: null,
        ...values,
      });
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
              .search(filter, words, filter.place && lists.inPlace(filter.place))
              .map(({ id, at }) => ({
                id,
                userId: filter.userId,
                at,
                json: NO_JSON,
                ownerName: '',
              }))
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

    /**
     * Something an entry's JSON shows changed outside its row (its bottles, for the owner's
     * bottleCount): its cached JSON is made again on its next read.
     */
    forgetJson(id: number): void {
      entryJson.forget(id);
    },

    update(id: number, changes: BeverageChanges): BeverageRow | undefined {
      const row = db.update(beverages).set(changes).where(eq(beverages.id, id)).returning().get();
      entryJson.forget(id);
      search.changed();
      return row;
    },

    /**
     * The owner's entries a change of visibility applies to, as they are now (ids of other
     * owners' entries are not among them).
     */
    selected(userId: number, selection: EntrySelection): BeverageRow[] {
      const mine = eq(beverages.userId, userId);
      const where =
        'ids' in selection
          ? and(mine, idIn(selection.ids))
          : and(
              mine,
              selection.all.type && eq(beverages.type, selection.all.type),
              selection.all.status && eq(beverages.status, selection.all.status),
            );
      return db.select(tableColumns()).from(beverages).where(where).all();
    },

    /** Sets the visibility of entries (all of one owner's), in the caller's transaction. */
    setVisibility(
      ids: number[],
      values: { visibility: Visibility; federated: boolean; updatedAt: Date },
    ): void {
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        db.update(beverages).set(values).where(idIn(chunk)).run();
        for (const id of chunk) entryJson.forget(id);
      }
      search.changed();
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

    /** The entry a stored photo path belongs to (beverages_photo_path_idx). */
    ownerOfPhoto(
      photoPath: string,
    ): { id: number; userId: number; visibility: Visibility } | undefined {
      return photoOwner.get({ photoPath });
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
