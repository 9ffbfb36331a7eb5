import { and, desc, eq, lt, or, sql } from '../db/orm.ts';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
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
  /** Free text matched against name, subtype, maker and notes, case-insensitively. */
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

/** Data access for entries: the only place that queries beverages and beverages_fts. */
export function createBeverageRepository(db: Db) {
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
      return insertOne.get(values);
    },

    findById(id: number): BeverageWithOwner | undefined {
      return byId.get({ id });
    },

    /** Newest first, at most `limit`. */
    list(filter: BeverageFilter): BeverageWithOwner[] {
      const conditions: SQL[] = [eq(beverages.userId, filter.userId)];
      if (filter.type) conditions.push(eq(beverages.type, filter.type));
      if (filter.status) conditions.push(eq(beverages.status, filter.status));
      if (filter.inCellar !== undefined) conditions.push(eq(beverages.inCellar, filter.inCellar));
      if (filter.q) conditions.push(...searchConditions(filter.q));
      if (filter.before) {
        const { createdAt, id } = filter.before;
        conditions.push(
          or(
            lt(beverages.createdAt, new Date(createdAt)),
            and(eq(beverages.createdAt, new Date(createdAt)), lt(beverages.id, id)),
          )!,
        );
      }
      return db
        .select(withOwner)
        .from(beverages)
        .innerJoin(users, eq(users.id, beverages.userId))
        .where(and(...conditions))
        .orderBy(desc(beverages.createdAt), desc(beverages.id))
        .limit(filter.limit)
        .all();
    },

    update(id: number, changes: BeverageChanges): BeverageRow | undefined {
      return db.update(beverages).set(changes).where(eq(beverages.id, id)).returning().get();
    },

    delete(id: number): boolean {
      return db.delete(beverages).where(eq(beverages.id, id)).run().changes > 0;
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
  };
}

export type BeverageRepository = ReturnType<typeof createBeverageRepository>;

/**
 * Every whitespace-separated term must occur somewhere in the entry. Terms of three or more
 * characters use the FTS5 trigram index (substring match, case- and accent-insensitive); shorter
 * terms, which a trigram index cannot serve, fall back to LIKE on the user's own rows.
 */
function searchConditions(q: string): SQL[] {
  const terms = q.split(/\s+/).filter(Boolean).slice(0, 10);
  const conditions: SQL[] = [];
  const long = terms.filter((t) => [...t].length >= 3);
  if (long.length > 0) {
    const match = long.map((t) => `"${t.replaceAll('"', '""')}"`).join(' AND ');
    conditions.push(
      sql`${beverages.id} in (select rowid from beverages_fts where beverages_fts match ${match})`,
    );
  }
  for (const term of terms.filter((t) => [...t].length < 3)) {
    const like = `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    conditions.push(
      sql`(${beverages.name} like ${like} escape '\\' or ${beverages.subtype} like ${like} escape '\\' or ${beverages.makerName} like ${like} escape '\\' or ${beverages.notes} like ${like} escape '\\')`,
    );
  }
  return conditions;
}
