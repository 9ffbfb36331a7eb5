import type { Database } from '../src/db/database.ts';
import type {
  BeverageRow,
  BeverageStatus,
  BeverageType,
  Visibility,
} from '../src/db/schema/index.ts';
import { FEDERATED_ENTRY_SQL } from '../src/visibility/policy.ts';
import { createNoteGenerations } from './note-generations.ts';

/**
 * An entry as federation reads it (no Fedify here: the outbox handlers load this at start),
 * with the generation of its Note id (note-generations.ts).
 */
export type FederatedEntryRow = BeverageRow & { noteGeneration: number };

const COLUMNS = `id, user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar,
  photo_path, visibility, federated, created_at, updated_at, drink_from, drink_until`;

function rowOf(raw: Record<string, unknown>): BeverageRow {
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
    visibility: raw.visibility as Visibility,
    federated: raw.federated === 1,
    createdAt: new Date(raw.created_at as number),
    updatedAt: new Date(raw.updated_at as number),
    drinkFrom: raw.drink_from as number | null,
    drinkUntil: raw.drink_until as number | null,
  };
}

/**
 * The reads federation makes of entries: one by id (a Note, a delivery), a user's newest first
 * (the outbox collection), and counts (the outbox's totalItems, NodeInfo's localPosts). Only
 * entries that go to the fediverse (src/visibility/policy.ts: never a PRIVATE one, nor one its
 * owner keeps out of it) are read: to remote servers the others do not exist.
 */
export function createFederatedEntries(db: Database) {
  const federated = FEDERATED_ENTRY_SQL;
  const generations = createNoteGenerations(db);
  const withGeneration = async (row: BeverageRow): Promise<FederatedEntryRow> => ({
    ...row,
    noteGeneration: await generations.current(row.id),
  });
  const byId = db.prepare<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM beverages WHERE id = ? AND ${federated}`,
  );
  const page = db.prepare<Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM beverages WHERE user_id = ? AND id < ? AND ${federated}
     ORDER BY id DESC LIMIT ?`,
  );
  const countOf = db
    .prepare(`SELECT count(*) FROM beverages WHERE user_id = ? AND ${federated}`)
    .pluck<number>();
  const countFederated = db
    .prepare(
      `SELECT count(*) FROM beverages b JOIN users u ON u.id = b.user_id
       WHERE u.activitypub_enabled = 1 AND b.federated = 1 AND b.visibility <> 'PRIVATE'`,
    )
    .pluck<number>();

  return {
    /** A federated entry by id; undefined for one that is missing or not federated. */
    async byId(id: number): Promise<FederatedEntryRow | undefined> {
      const raw = await byId.get(id);
      return raw ? withGeneration(rowOf(raw)) : undefined;
    },
    /** The user's federated entries with an id below `beforeId`, newest (highest id) first. */
    async pageOf(userId: number, beforeId: number, limit: number): Promise<FederatedEntryRow[]> {
      const rows = await page.all(userId, beforeId, limit);
      return Promise.all(rows.map((raw) => withGeneration(rowOf(raw))));
    },
    /** The generations of the entries' Note ids (note-generations.ts). */
    generations,
    async countOf(userId: number): Promise<number> {
      return (await countOf.get(userId))!;
    },
    /** Federated entries of users with activityPubEnabled: what the fediverse may receive. */
    async countFederated(): Promise<number> {
      return (await countFederated.get())!;
    },
  };
}

export type FederatedEntries = ReturnType<typeof createFederatedEntries>;
