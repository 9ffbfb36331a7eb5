import type { ShareUser } from '../../contract/beverages.ts';
import type { DrinkWindow } from '../../contract/cellar.ts';
import type { EntryScope } from '../visibility/policy.ts';
import type { Database } from '../db/database.ts';
import { createReadCache } from '../db/read-cache.ts';
import { rowReader } from '../db/rows.ts';
import type { CountedRow } from './entry-fields.ts';
import { createEntryJsonCache, NO_JSON, type EntryJson } from './entry-json.ts';
import { createListStatements } from './list-statements.ts';
import type { PlaceFilter } from './place-filter.ts';
import { insertStatement, updateStatement } from './row-statements.ts';
import { createSearchIndex, searchWords } from './search-index.ts';
import {
  beverages,
  type BeverageRow,
  type BeverageStatus,
  type BeverageType,
  type Visibility,
} from '../db/schema/index.ts';
import { withIdList } from '../db/id-list.ts';

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

/** An entry's row with its owner's name and counts (src/beverages/entry-fields.ts). */
const WITH_OWNER = `SELECT b.*, u.full_name AS owner_name,
    (select coalesce(sum(quantity), 0) from bottles where bottles.beverage_id = b.id) AS bottle_count,
    (select count(*) from tastings where tastings.beverage_id = b.id) AS tasting_count
  FROM beverages b JOIN users u ON u.id = b.user_id`;

type Raw = Record<string, unknown>;

/** The columns of an entry a change may set, by field. */
const CHANGEABLE = {
  type: 'type',
  name: 'name',
  subtype: 'subtype',
  makerName: 'maker_name',
  rating: 'rating',
  notes: 'notes',
  status: 'status',
  inCellar: 'in_cellar',
  photoPath: 'photo_path',
  visibility: 'visibility',
  federated: 'federated',
  drinkFrom: 'drink_from',
  drinkUntil: 'drink_until',
  updatedAt: 'updated_at',
} as const;

/** Data access for entries: the only place that queries beverages. */
export function createBeverageRepository(db: Database) {
  const lists = createListStatements(db);
  const search = createSearchIndex(db);
  const entryJson = createEntryJsonCache(db, lists.byIds);
  const ownerNames = createReadCache<number, string>(db);
  const readRow = rowReader(beverages);
  const ownerNameOf = db.prepare('SELECT full_name FROM users WHERE id = ?').pluck<string>();
  const byId = db.prepare<Raw>(`${WITH_OWNER} WHERE b.id = ?`);
  const photoOwner = db.prepare<{ id: number; userId: number; visibility: Visibility }>(
    'SELECT id, user_id AS userId, visibility FROM beverages WHERE photo_path = ?',
  );
  const insertOne = insertStatement(db, beverages, 'beverages', {
    userId: 'user_id',
    createdAt: 'created_at',
    ...CHANGEABLE,
  });
  const updateOne = updateStatement(db, beverages, 'beverages', CHANGEABLE);
  // The entries a change of visibility applies to: by id, or every one of a type, a list or both.
  const selectedByIds = db.prepare(
    withIdList((ids) => `SELECT * FROM beverages WHERE user_id = ? AND id in ${ids('?')}`),
  );
  const selectedAll = {
    none: db.prepare('SELECT * FROM beverages WHERE user_id = ?'),
    type: db.prepare('SELECT * FROM beverages WHERE user_id = ? AND type = ?'),
    status: db.prepare('SELECT * FROM beverages WHERE user_id = ? AND status = ?'),
    both: db.prepare('SELECT * FROM beverages WHERE user_id = ? AND type = ? AND status = ?'),
  };
  const setVisibilityOf = db.prepare(
    withIdList(
      (ids) => `UPDATE beverages SET visibility = ?, federated = ?, updated_at = ?
     WHERE id in ${ids('?')}`,
    ),
  );
  const deleteOne = db.prepare('DELETE FROM beverages WHERE id = ?');
  const photoPathsOf = db
    .prepare('SELECT photo_path FROM beverages WHERE user_id = ? AND photo_path is not null')
    .pluck<string>();
  const allPhotoPaths = db
    .prepare('SELECT photo_path FROM beverages WHERE photo_path is not null')
    .pluck<string>();
  return {
    async insert(values: NewBeverage): Promise<BeverageRow> {
      const row = await insertOne({
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

    async findById(id: number): Promise<BeverageWithOwner | undefined> {
      const row = await byId.get(id);
      if (!row) return undefined;
      return {
        ...readRow(row),
        ownerName: row.owner_name as string,
        bottleCount: Number(row.bottle_count),
        tastingCount: Number(row.tasting_count),
      };
    },

    /**
     * Newest first, at most `limit`. With search words, the owner's in-memory search index
     * finds the page (src/beverages/search-index.ts); without, a cached prepared statement
     * (src/beverages/list-statements.ts).
     */
    async list(filter: BeverageFilter): Promise<ListedEntry[]> {
      const words = searchWords(filter.q);
      const rows: ListedEntry[] =
        words.length > 0
          ? (
              await search.search(
                filter,
                words,
                filter.place ? await lists.inPlace(filter.place) : undefined,
              )
            ).map(({ id, at }) => ({
              id,
              userId: filter.userId,
              at,
              json: NO_JSON,
              ownerName: '',
            }))
          : await lists.list(filter);
      if (rows.length === 0) return [];
      const ownerName = (await ownerNames.get(filter.userId, (id) => ownerNameOf.get(id))) ?? '';
      const texts = await entryJson.of(rows.map((row) => row.id));
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

    async update(id: number, changes: BeverageChanges): Promise<BeverageRow | undefined> {
      const row = await updateOne(id, changes);
      entryJson.forget(id);
      search.changed();
      return row;
    },

    /**
     * The owner's entries a change of visibility applies to, as they are now (ids of other
     * owners' entries are not among them).
     */
    async selected(userId: number, selection: EntrySelection): Promise<BeverageRow[]> {
      let rows: unknown[];
      if ('ids' in selection) {
        rows = await selectedByIds.all(userId, JSON.stringify(selection.ids));
      } else {
        const { type, status } = selection.all;
        if (type && status) rows = await selectedAll.both.all(userId, type, status);
        else if (type) rows = await selectedAll.type.all(userId, type);
        else if (status) rows = await selectedAll.status.all(userId, status);
        else rows = await selectedAll.none.all(userId);
      }
      return rows.map(readRow);
    },

    /** Sets the visibility of entries (all of one owner's), in the caller's transaction. */
    async setVisibility(
      ids: number[],
      values: { visibility: Visibility; federated: boolean; updatedAt: Date },
    ): Promise<void> {
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        await setVisibilityOf.run(
          values.visibility,
          values.federated ? 1 : 0,
          values.updatedAt.getTime(),
          JSON.stringify(chunk),
        );
        for (const id of chunk) entryJson.forget(id);
      }
      search.changed();
    },

    async delete(id: number): Promise<boolean> {
      const deleted = (await deleteOne.run(id)).changes > 0;
      entryJson.forget(id);
      search.changed();
      return deleted;
    },

    /** Stored photo paths of a user's entries (to delete files with the account). */
    photoPathsOf(userId: number): Promise<string[]> {
      return photoPathsOf.all(userId);
    },

    /** The entry a stored photo path belongs to (beverages_photo_path_idx). */
    async ownerOfPhoto(
      photoPath: string,
    ): Promise<{ id: number; userId: number; visibility: Visibility } | undefined> {
      return photoOwner.get(photoPath);
    },

    /** Every stored photo path, for the uploads sweep (src/media/sweep.ts). */
    allPhotoPaths(): Promise<string[]> {
      return allPhotoPaths.all();
    },
  };
}

export type BeverageRepository = ReturnType<typeof createBeverageRepository>;
