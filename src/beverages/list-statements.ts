import type { Database, Statement } from '../db/database.ts';
import { createReadCache } from '../db/read-cache.ts';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES, VISIBILITIES } from '../../contract/enums.ts';
import type { BeverageStatus, BeverageType, Visibility } from '../db/schema/index.ts';
import { windowKey, windowSql } from './drink-window.ts';
import type { CountedRow } from './entry-fields.ts';
import { NO_JSON } from './entry-json.ts';
import { ENTRIES_IN_PLACE_SQL, placeKey, placeSql, type PlaceFilter } from './place-filter.ts';
import type { BeverageFilter, ListedEntry } from './repository.ts';
import { withIdList } from '../db/id-list.ts';

/**
 * The statements behind entry lists, the busiest reads of the vault: hand-written SQL, prepared
 * once per key and kept (500 at most, least recently used dropped first), with rows mapped
 * here. Building and compiling SQL for every request cost more than running it.
 *
 * The owner, type, status, cellar flag, drinking window (with the year it is judged by), place
 * (src/beverages/place-filter.ts) and page size are written into the SQL as literals and so are
 * part of the key; only the cursor is bound. Why: this SQLite is built with STAT4, which
 * makes a statement recompile whenever a value the planner may use (an indexed column's value,
 * the LIMIT) is bound again; binding the owner and the page size on every call cost five times
 * what the dashboard's query itself costs. The literals are validated integers and enum members
 * (checked again here), never text from a request.
 */
const CACHED = 500;
const TYPES = new Set<string>(BEVERAGE_TYPES);
const STATUSES = new Set<string>(BEVERAGE_STATUSES);
const LEVELS = new Set<string>(VISIBILITIES);
// The entry's bottle count (its owner's only: src/beverages/entry-fields.ts) is read with it, one
// indexed sum over bottles_beverage_idx.
const COLUMNS =
  'id, user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, photo_path, visibility, federated, created_at, updated_at, drink_from, drink_until, (select coalesce(sum(quantity), 0) from bottles where beverage_id = beverages.id) AS bottle_count, (select count(*) from tastings where beverage_id = beverages.id) AS tasting_count';

interface RawRow {
  id: number;
  user_id: number;
  type: BeverageType;
  name: string;
  subtype: string;
  maker_name: string;
  rating: number;
  notes: string;
  status: BeverageStatus;
  in_cellar: number;
  photo_path: string | null;
  visibility: Visibility;
  federated: number;
  created_at: number;
  updated_at: number;
  drink_from: number | null;
  drink_until: number | null;
  bottle_count: number;
  tasting_count: number;
}

const LISTED_COLUMNS = 'id, user_id, created_at';

interface ListedRaw {
  id: number;
  user_id: number;
  created_at: number;
}

/** A listed entry without its JSON yet (the repository adds it and the owner's name). */
function toListed(r: ListedRaw): ListedEntry {
  return { id: r.id, userId: r.user_id, at: r.created_at, json: NO_JSON, ownerName: '' };
}

function toRow(r: RawRow): CountedRow {
  return {
    id: r.id,
    userId: r.user_id,
    type: r.type,
    name: r.name,
    subtype: r.subtype,
    makerName: r.maker_name,
    rating: r.rating,
    notes: r.notes,
    status: r.status,
    inCellar: r.in_cellar === 1,
    photoPath: r.photo_path,
    visibility: r.visibility,
    federated: r.federated === 1,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    drinkFrom: r.drink_from,
    drinkUntil: r.drink_until,
    bottleCount: r.bottle_count,
    tastingCount: r.tasting_count,
  };
}

function keyOf(filter: BeverageFilter): string {
  if (!Number.isSafeInteger(filter.userId)) throw new TypeError('userId must be an integer');
  if (!Number.isSafeInteger(filter.limit) || filter.limit < 1) {
    throw new TypeError('limit must be a positive integer');
  }
  if (filter.type && !TYPES.has(filter.type)) throw new TypeError('unknown type');
  if (filter.status && !STATUSES.has(filter.status)) throw new TypeError('unknown status');
  if (filter.scope?.visibilities.some((v) => !LEVELS.has(v))) {
    throw new TypeError('unknown visibility');
  }
  return [
    filter.userId,
    filter.type ?? '',
    filter.status ?? '',
    filter.inCellar === undefined ? '' : Number(filter.inCellar),
    windowKey(filter.window),
    placeKey(filter.place),
    filter.before ? 'b' : '',
    filter.limit,
    filter.scope ? filter.scope.visibilities.join(',') : '*',
    filter.scope?.sharedIds.length ? 's' : '',
  ].join(':');
}

function prepare(db: Database, filter: BeverageFilter): Statement<ListedRaw> {
  const where = [`user_id = ${filter.userId}`];
  if (filter.type) where.push(`type = '${filter.type}'`);
  if (filter.status) where.push(`status = '${filter.status}'`);
  if (filter.inCellar !== undefined) where.push(`in_cellar = ${filter.inCellar ? 1 : 0}`);
  if (filter.window) where.push(windowSql(filter.window.kind, filter.window.year));
  if (filter.place) where.push(placeSql(filter.place));
  // Another user's list: only what the visibility policy lets the viewer see (its scope).
  const levels = filter.scope?.visibilities.map((v) => `'${v}'`).join(', ') || 'NULL';
  const shared = filter.scope !== undefined && filter.scope.sharedIds.length > 0;
  if (filter.scope && !shared) where.push(`visibility in (${levels})`);
  // A row value, which SQLite seeks to in the index; the equivalent OR was walked row by row.
  const before = filter.before ? ' and (created_at, id) < (?, ?)' : '';
  return db.prepare<ListedRaw>(
    withIdList(
      (ids) => `select ${LISTED_COLUMNS} from beverages where ${where.join(' and ')}${
        shared ? ` and (visibility in (${levels}) or id in ${ids('?')})` : ''
      }${before}
      order by created_at desc, id desc limit ${filter.limit}`,
    ),
  );
}

export function createListStatements(db: Database) {
  const statements = new Map<string, Statement<ListedRaw>>();
  // Pages as read, until the database changes (src/db/read-cache.ts): the same page (a
  // dashboard's, a profile's first) is asked again and again between writes, and every
  // statement SQLite runs outside a transaction opens and closes a read transaction, whose file
  // locks (system calls) cost more than the indexed read itself.
  const pages = createReadCache<string, ListedRaw[]>(db, { maxEntries: CACHED });
  const byIds = db.prepare<RawRow>(
    withIdList((ids) => `select ${COLUMNS} from beverages where id in ${ids('?')}`),
  );

  const inPlace = db.prepare(ENTRIES_IN_PLACE_SQL).pluck<number>();

  return {
    /** The entries with a bottle in the place or a place inside it (for searches). */
    async inPlace(filter: PlaceFilter): Promise<Set<number>> {
      return new Set(await inPlace.all(filter));
    },

    /** A page of one owner's entries, newest first (no search words: see search-index.ts). */
    async list(filter: BeverageFilter): Promise<ListedEntry[]> {
      const key = keyOf(filter);
      const params: unknown[] = [];
      if (filter.scope?.sharedIds.length) params.push(JSON.stringify(filter.scope.sharedIds));
      if (filter.before) params.push(filter.before.createdAt, filter.before.id);
      const rows = (await pages.get(`${key}|${params.join('|')}`, () => {
        let statement = statements.get(key);
        if (statement) {
          statements.delete(key); // most recently used goes last
        } else {
          statement = prepare(db, filter);
          if (statements.size >= CACHED) statements.delete(statements.keys().next().value!);
        }
        statements.set(key, statement);
        return statement.all(...params);
      }))!;
      // New objects every time: the caller completes them (their JSON, owner, recipients).
      return rows.map(toListed);
    },

    /** Entries by id, in the order of `ids`. */
    async byIds(ids: number[]): Promise<CountedRow[]> {
      if (ids.length === 0) return [];
      const rows = new Map(
        (await byIds.all(JSON.stringify(ids))).map((raw) => [raw.id, toRow(raw)]),
      );
      return ids.flatMap((id) => rows.get(id) ?? []);
    },
  };
}
