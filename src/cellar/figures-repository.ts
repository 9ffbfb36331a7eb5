import type { Database, Engine, SqlText, Statement } from '../db/database.ts';
import { BEVERAGE_TYPES, type BeverageType } from '../../contract/enums.ts';
import type { DrinkWindow } from '../../contract/cellar.ts';
import { createReadCache } from '../db/read-cache.ts';
import { windowSql } from '../beverages/drink-window.ts';
import { hadBottlesSql } from './flag-alone.ts';
import { ID_LIST } from '../db/id-list.ts';

/**
 * The reads behind the cellar's figures (GET /cellar) and its bottles by place (GET
 * /cellar/bottles): hand-written SQL over bottles, places and beverages, one statement each.
 *
 * As in src/beverages/list-statements.ts, the owner, the filters and the year the windows are
 * judged by are validated literals written into the SQL and part of each statement's key
 * (SQLite's STAT4 recompiles a statement whose indexed values are bound again); lists of ids and
 * the cursor are bound. Answers are memoized until the database changes.
 */

/** Entries of one type and window, and their bottles (kind 0); or a currency's value (1); or ml (2). */
export type SummaryRaw = [0 | 1 | 2, string | null, DrinkWindow | null, number, number];

/** A place of the owner's, as the tree is built from. */
export interface PlaceNode {
  id: number;
  name: string;
  parentId: number | null;
}

/** A bottle line with its entry, in the order of the view by place. */
export interface CellarBottleRow {
  id: number;
  beverageId: number;
  quantity: number;
  sizeMl: number;
  vintage: number | null;
  placeId: number | null;
  purchasedOn: string | null;
  priceMinor: number | null;
  currency: string | null;
  note: string;
  createdAt: number;
  entryName: string;
  type: BeverageType;
  subtype: string;
  makerName: string;
  photoPath: string | null;
  drinkFrom: number | null;
  drinkUntil: number | null;
}

export interface BottlePageQuery {
  userId: number;
  type?: BeverageType | undefined;
  window?: { kind: DrinkWindow; year: number } | undefined;
  /** Bottles in these places; 'none': those without a place. */
  places?: number[] | 'none' | undefined;
  /**
   * Every place id of the owner's in the order of the view, as ',12,5,7,' (placeOrderText):
   * bottles go by where their place's id stands in it.
   */
  order: string;
  /** Keyset paging: only lines after this position of the order. */
  after?: { rank: number; name: string; entryId: number; bottleId: number } | undefined;
  limit: number;
}

/** Where a bottle without a place (or in no listed place) goes: after every place. */
export const NO_PLACE_RANK = 1_000_000_000;

/** The place ids in order as the statement takes them, and a place's position in that text. */
export function placeOrderText(ids: number[]): string {
  return `,${ids.join(',')},`;
}
export function rankIn(order: string, placeId: number): number | undefined {
  const at = order.indexOf(`,${placeId},`);
  return at < 0 ? undefined : at + 1; // as SQLite's instr(), from 1
}

const TYPES = new Set<string>(BEVERAGE_TYPES);
const CACHED = 200;

function integer(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new TypeError(`${what} must be an integer`);
  return value;
}

/** The window an entry `e` is in by `year`, as an SQL CASE (src/beverages/drink-window.ts). */
function windowCase(year: number): string {
  return `CASE WHEN ${windowSql('NOW', year, 'e.')} THEN 'NOW'
    WHEN ${windowSql('PAST', year, 'e.')} THEN 'PAST'
    WHEN ${windowSql('LATER', year, 'e.')} THEN 'LATER' END`;
}

/**
 * The cellar in groups: every entry with bottle lines counts its bottles; an entry 'In cellar'
 * without any counts by the one-bottle rule (./flag-alone.ts) and is one of the entries either
 * way. Then the value per currency and the ml of the lines.
 */
function summarySql(userId: number, year: number): string {
  return `WITH x(id, n) AS (
      SELECT beverage_id, sum(quantity) FROM bottles WHERE user_id = ${userId}
      GROUP BY beverage_id
      UNION ALL
      SELECT b.id, CASE WHEN ${hadBottlesSql('b', String(userId))} THEN 0 ELSE 1 END
        FROM beverages b WHERE b.user_id = ${userId} AND b.in_cellar = 1
        AND NOT EXISTS (SELECT 1 FROM bottles l WHERE l.beverage_id = b.id))
    SELECT 0 AS kind, e.type AS key, ${windowCase(year)} AS w, count(*) AS entries, sum(x.n) AS n
      FROM x JOIN beverages e ON e.id = x.id GROUP BY e.type, w
    UNION ALL
    SELECT 1, currency, NULL, 0, sum(price_minor * quantity) FROM bottles
      WHERE user_id = ${userId} AND price_minor IS NOT NULL GROUP BY currency
    UNION ALL
    SELECT 2, NULL, NULL, 0, coalesce(sum(size_ml * quantity), 0) FROM bottles
      WHERE user_id = ${userId}`;
}

const BOTTLE_COLUMNS = `b.id, b.beverage_id AS beverageId, b.quantity, b.size_ml AS sizeMl,
  b.vintage, b.place_id AS placeId, b.purchased_on AS purchasedOn, b.price_minor AS priceMinor,
  b.currency, b.note, b.created_at AS createdAt, e.name AS entryName, e.type, e.subtype,
  e.maker_name AS makerName, e.photo_path AS photoPath, e.drink_from AS drinkFrom,
  e.drink_until AS drinkUntil`;

/**
 * What the order of the view by place is written with on each engine: a place's position in
 * @order (SQLite's instr, PostgreSQL's strpos) and entry names compared without case (SQLite's
 * NOCASE, ASCII letters folded then bytes; on PostgreSQL lower-cased, then bytes).
 */
const ORDER_SQL = {
  sqlite: {
    position: (text: string, part: string) => `instr(${text}, ${part})`,
    nocase: (name: string) => `${name} COLLATE NOCASE`,
    nameParam: '@name',
  },
  postgres: {
    position: (text: string, part: string) => `strpos(CAST(${text} AS text), ${part})`,
    nocase: (name: string) => `lower(${name}) COLLATE "C"`,
    nameParam: 'lower(CAST(@name AS text))',
  },
};

function bottlesSql(query: BottlePageQuery): SqlText {
  return {
    sqlite: bottlesSqlFor(query, 'sqlite', ORDER_SQL.sqlite),
    postgres: bottlesSqlFor(query, 'postgres', ORDER_SQL.postgres),
  };
}

function bottlesSqlFor(
  query: BottlePageQuery,
  engine: Engine,
  { position, nocase, nameParam }: (typeof ORDER_SQL)[Engine],
): string {
  const where = [`b.user_id = ${integer(query.userId, 'userId')}`];
  if (query.type) {
    if (!TYPES.has(query.type)) throw new TypeError('unknown type');
    where.push(`e.type = '${query.type}'`);
  }
  if (query.window) where.push(windowSql(query.window.kind, query.window.year, 'e.'));
  if (query.places === 'none') where.push('b.place_id IS NULL');
  else if (query.places) where.push(`b.place_id IN ${ID_LIST[engine]('@places')}`);
  // A place's position in the view is where its id stands in @order (',12,5,7,'): a string
  // search per line, where joining the ids as a table was a scan of it per line.
  const rank = `coalesce(nullif(${position('@order', "',' || b.place_id || ','")}, 0), ${NO_PLACE_RANK})`;
  const name = nocase('e.name');
  if (query.after) {
    where.push(`(${rank}, ${name}, e.id, b.id) > (@rank, ${nameParam}, @entryId, @bottleId)`);
  }
  return `SELECT ${BOTTLE_COLUMNS}, ${rank} AS rank
    FROM bottles b JOIN beverages e ON e.id = b.beverage_id
    WHERE ${where.join(' AND ')}
    ORDER BY ${rank}, ${name}, e.id, b.id
    LIMIT ${integer(query.limit, 'limit')}`;
}

/** A summary row as the statement names its columns (see summarySql). */
interface SummaryRow {
  kind: 0 | 1 | 2;
  key: string | null;
  w: DrinkWindow | null;
  entries: number;
  n: number;
}

export function createCellarFiguresRepository(db: Database) {
  const memo = createReadCache<string, unknown>(db, { maxEntries: 200 });
  const cached = async <T>(key: string, read: () => Promise<T>): Promise<T> =>
    (await memo.get(key, read)) as T;
  const statements = new Map<string, Statement>();
  const placesOf = db.prepare<PlaceNode>(
    'SELECT id, name, parent_id AS parentId FROM places WHERE user_id = ? ORDER BY id',
  );
  const entryName = db
    .prepare('SELECT name FROM beverages WHERE id = ? AND user_id = ?')
    .pluck<string>();

  /** A statement by key, prepared once (the least recently used dropped past CACHED). */
  function statement<Row>(key: string, sql: () => SqlText): Statement<Row> {
    let found = statements.get(key);
    if (found) statements.delete(key);
    else {
      found = db.prepare(sql());
      if (statements.size >= CACHED) statements.delete(statements.keys().next().value!);
    }
    statements.set(key, found);
    return found as Statement<Row>;
  }

  return {
    /** The owner's cellar in groups (SummaryRaw), its windows judged by `year`. */
    summary(userId: number, year: number): Promise<SummaryRaw[]> {
      integer(userId, 'userId');
      integer(year, 'year');
      const key = `summary ${userId} ${year}`;
      return cached(key, async () =>
        (await statement<SummaryRow>(key, () => summarySql(userId, year)).all()).map(
          (r): SummaryRaw => [r.kind, r.key, r.w, r.entries, r.n],
        ),
      );
    },

    /** Every place of the owner's. */
    places(userId: number): Promise<PlaceNode[]> {
      return cached(`places ${userId}`, () => placesOf.all(userId));
    },

    /** The name of one of the owner's entries (where a page's cursor stands), if it is there. */
    entryName(userId: number, entryId: number): Promise<string | undefined> {
      return entryName.get(entryId, userId);
    },

    /** A page of bottle lines with their entries, in the order of the view by place. */
    async bottles(query: BottlePageQuery): Promise<(CellarBottleRow & { rank: number })[]> {
      const key = [
        'bottles',
        query.userId,
        query.type ?? '',
        query.window ? `${query.window.kind}${query.window.year}` : '',
        query.places === 'none' ? 'none' : query.places ? 'in' : '',
        query.after ? 'a' : '',
        query.limit,
      ].join(' ');
      const params: Record<string, unknown> = { order: query.order };
      if (Array.isArray(query.places)) params.places = JSON.stringify(query.places);
      if (query.after) Object.assign(params, query.after);
      const rows = await cached(`${key} ${JSON.stringify(params)}`, () =>
        statement<CellarBottleRow & { rank: number }>(key, () => bottlesSql(query)).all(params),
      );
      // New objects on every call, as before: the rows kept in the cache stay as read.
      return rows.map((row) => ({ ...row }));
    },
  };
}

export type CellarFiguresRepository = ReturnType<typeof createCellarFiguresRepository>;
