import type Database from 'better-sqlite3';
import type { BeverageRow, BeverageStatus, BeverageType } from '../src/db/schema/index.ts';

/** An entry as federation reads it (no Fedify here: the outbox handlers load this at start). */
export type FederatedEntryRow = BeverageRow;

const COLUMNS = `id, user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar,
  photo_path, created_at, updated_at`;

function rowOf(raw: Record<string, unknown>): FederatedEntryRow {
  return {
    id: raw.id as number,
    userId: raw.user_id as number,
    type: raw.type as BeverageType,
    name: raw.name as string,
    subtype: raw.subtype as string,
    makerName: raw.maker_name as string,
    rating: raw.rating as number,
    notes: raw.notes as string,
    status: raw.status as BeverageStatus,
    inCellar: raw.in_cellar === 1,
    photoPath: raw.photo_path as string | null,
    createdAt: new Date(raw.created_at as number),
    updatedAt: new Date(raw.updated_at as number),
  };
}

/**
 * The reads federation makes of entries: one by id (a Note, a delivery), a user's newest first
 * (the outbox collection), and counts (the outbox's totalItems, NodeInfo's localPosts).
 */
export function createFederatedEntries(sqlite: Database.Database) {
  const byId = sqlite.prepare(`SELECT ${COLUMNS} FROM beverages WHERE id = ?`);
  const page = sqlite.prepare(
    `SELECT ${COLUMNS} FROM beverages WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
  );
  const countOf = sqlite.prepare('SELECT count(*) FROM beverages WHERE user_id = ?').pluck();
  const countFederated = sqlite
    .prepare(
      `SELECT count(*) FROM beverages b JOIN users u ON u.id = b.user_id
       WHERE u.activitypub_enabled = 1`,
    )
    .pluck();

  return {
    byId(id: number): FederatedEntryRow | undefined {
      const raw = byId.get(id) as Record<string, unknown> | undefined;
      return raw ? rowOf(raw) : undefined;
    },
    /** The user's entries with an id below `beforeId`, newest (highest id) first. */
    pageOf(userId: number, beforeId: number, limit: number): FederatedEntryRow[] {
      return (page.all(userId, beforeId, limit) as Record<string, unknown>[]).map(rowOf);
    },
    countOf(userId: number): number {
      return countOf.get(userId) as number;
    },
    /** Entries of users with activityPubEnabled: what the fediverse may receive. */
    countFederated(): number {
      return countFederated.get() as number;
    },
  };
}

export type FederatedEntries = ReturnType<typeof createFederatedEntries>;
