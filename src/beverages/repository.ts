import { and, desc, eq, sql } from '../db/orm.ts';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
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
  const listStatements = new Map<string, ReturnType<typeof prepareList>>();
  const search = createSearchIndex(db.$client);
  const byIds = db
    .select(tableColumns())
    .from(beverages)
    .where(sql`${beverages.id} in (select value from json_each(${sql.placeholder('ids')}))`)
    .prepare();
  /** Rows by id, in the order of `ids` (the search index's newest-first order). */
  const fetchByIds = (ids: number[]) => {
    if (ids.length === 0) return [];
    const rows = new Map(byIds.all({ ids: JSON.stringify(ids) }).map((row) => [row.id, row]));
    return ids.flatMap((id) => rows.get(id) ?? []);
  };

  /** The cached statement for a filter without search words. */
  function listStatement(filter: BeverageFilter) {
    const key = listStatementKey(filter);
    let statement = listStatements.get(key);
    if (statement) {
      listStatements.delete(key); // most recently used goes last
    } else {
      statement = prepareList(db, filter);
      if (listStatements.size >= LIST_STATEMENT_CACHE) {
        listStatements.delete(listStatements.keys().next().value!);
      }
    }
    listStatements.set(key, statement);
    return statement;
  }
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
      search.changed();
      return row;
    },

    findById(id: number): BeverageWithOwner | undefined {
      return byId.get({ id });
    },

    /**
     * Newest first, at most `limit`. With search words, the owner's in-memory search index
     * finds the page (src/beverages/search-index.ts); without, a cached prepared statement
     * (see `listStatementKey`): building and compiling the SQL for every request cost more
     * than running it.
     */
    list(filter: BeverageFilter): BeverageWithOwner[] {
      const words = searchWords(filter.q);
      const rows =
        words.length > 0
          ? fetchByIds(search.search(filter, words))
          : listStatement(filter).all({
              beforeAt: filter.before?.createdAt,
              beforeId: filter.before?.id,
              limit: filter.limit,
            });
      if (rows.length === 0) return [];
      const ownerName = ownerNameOf.get({ id: filter.userId })?.fullName ?? '';
      return rows.map((row) => Object.assign(row, { ownerName }));
    },

    update(id: number, changes: BeverageChanges): BeverageRow | undefined {
      const row = db.update(beverages).set(changes).where(eq(beverages.id, id)).returning().get();
      search.changed();
      return row;
    },

    delete(id: number): boolean {
      const deleted = db.delete(beverages).where(eq(beverages.id, id)).run().changes > 0;
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

/** Prepared list statements kept (least recently used dropped first). */
const LIST_STATEMENT_CACHE = 500;
const TYPES = new Set<string>(['WHISKEY', 'WINE', 'BEER']);
const STATUSES = new Set<string>(['TRIED', 'TO_TRY']);

/**
 * Which cached statement serves a filter. The owner, type, status and cellar flag are written
 * into the SQL as literals and so are part of the key; the cursor and limit are
 * bound. Why literals: this SQLite is built with STAT4, which makes a statement recompile
 * whenever a value it could plan an index seek by is bound again, so binding the owner on
 * every call cost four times what the dashboard's query itself costs. The literals are a
 * validated integer and enum members (checked again here), never text from a request.
 */
function listStatementKey(filter: BeverageFilter): string {
  if (!Number.isSafeInteger(filter.userId)) throw new TypeError('userId must be an integer');
  if (filter.type && !TYPES.has(filter.type)) throw new TypeError('unknown type');
  if (filter.status && !STATUSES.has(filter.status)) throw new TypeError('unknown status');
  return [
    filter.userId,
    filter.type ?? '',
    filter.status ?? '',
    filter.inCellar === undefined ? '' : String(filter.inCellar),
    filter.before ? 'b' : '',
  ].join(':');
}

/** The list query for one key (see listStatementKey), with placeholders for the rest. */
function prepareList(db: Db, filter: BeverageFilter) {
  const p = sql.placeholder;
  const literal = (value: string | number) =>
    sql.raw(typeof value === 'number' ? String(value) : `'${value}'`);
  const conditions: SQL[] = [sql`${beverages.userId} = ${literal(filter.userId)}`];
  if (filter.type) conditions.push(sql`${beverages.type} = ${literal(filter.type)}`);
  if (filter.status) conditions.push(sql`${beverages.status} = ${literal(filter.status)}`);
  if (filter.inCellar !== undefined) {
    conditions.push(sql`${beverages.inCellar} = ${literal(filter.inCellar ? 1 : 0)}`);
  }
  if (filter.before) {
    // A row value, which SQLite seeks to in the index; the equivalent OR was walked row by row.
    conditions.push(
      sql`(${beverages.createdAt}, ${beverages.id}) < (${p('beforeAt')}, ${p('beforeId')})`,
    );
  }
  // One owner per list: their name is read once (ownerNameOf), not joined on every row.
  return db
    .select(tableColumns())
    .from(beverages)
    .where(and(...conditions))
    .orderBy(desc(beverages.createdAt), desc(beverages.id))
    .limit(p('limit'))
    .prepare();
}
