import type { Database, Statement } from '../db/database.ts';
import { remoteEntryBasicsOf, type RemoteEntryBasics } from '../../contract/entry-basics.ts';
import type { BeverageStatus, BeverageType } from '../db/schema/index.ts';

/** What marks a received Note as a tasting of the entry it names (from another vault). */
export interface RemoteTasting {
  /** 'YYYY-MM-DD'. */
  tastedOn: string;
  /** Whether it came from opening a bottle. */
  opened: boolean;
  vintage: number | null;
}

/** A received entry's fields, as the inbox hands them over (already validated). */
export interface RemoteEntryFields extends RemoteEntryBasics {
  /** Set when the Note is a tasting of the entry; null (or left out) for the entry itself. */
  tasting?: RemoteTasting | null | undefined;
  publishedAt: Date;
  updatedAt: Date;
}

/** A stored remote entry with the actor who published it. */
export interface RemoteEntryRecord extends RemoteEntryFields {
  tasting: RemoteTasting | null;
  id: number;
  actorId: number;
  noteUri: string;
  /** The photo's URL on the remote server, and the vault's own copy ('media/…'). */
  photoUrl: string | null;
  photoPath: string | null;
  receivedAt: Date;
  actor: { uri: string; handle: string | null; displayName: string };
}

function recordOf(row: Record<string, unknown>): RemoteEntryRecord {
  return {
    id: row.id as number,
    actorId: row.actor_id as number,
    noteUri: row.note_uri as string,
    type: row.type as BeverageType,
    name: row.name as string,
    subtype: row.subtype as string,
    makerName: row.maker_name as string,
    rating: row.rating as number,
    notes: row.notes as string,
    status: row.status as BeverageStatus,
    tasting: tastingOf(row.tasting),
    photoUrl: row.photo_url as string | null,
    photoPath: row.photo_path as string | null,
    publishedAt: new Date(row.published_at as number),
    updatedAt: new Date(row.updated_at as number),
    receivedAt: new Date(row.received_at as number),
    actor: {
      uri: row.actor_uri as string,
      handle: row.actor_handle as string | null,
      displayName: row.actor_display_name as string,
    },
  };
}

/** The stored tasting JSON back (null for an entry, or anything unreadable). */
function tastingOf(raw: unknown): RemoteTasting | null {
  if (typeof raw !== 'string') return null;
  try {
    const value = JSON.parse(raw) as Partial<RemoteTasting>;
    if (typeof value.tastedOn !== 'string') return null;
    return {
      tastedOn: value.tastedOn,
      opened: value.opened === true,
      vintage: typeof value.vintage === 'number' ? value.vintage : null,
    };
  } catch {
    return null;
  }
}

const MAX_CACHED_STATEMENTS = 64;

const SELECT = `SELECT r.*, a.uri AS actor_uri, a.handle AS actor_handle,
                       a.display_name AS actor_display_name
                FROM remote_entries r JOIN actors a ON a.id = r.actor_id`;

/**
 * Data access for entries received from remote vaults: the only place that queries
 * `remote_entries`. It also reads `actors`, `follows` and `blocks` for the one question the inbox asks
 * before storing anything (does a local user follow this remote actor?), and writes the received
 * Create into `activities` (the feed items point at it), since a received activity has no outbox
 * row and so no business in src/outbox/.
 */
export function createRemoteEntryRepository(db: Database) {
  type Row = Record<string, unknown>;
  const followedActor = db
    .prepare(
      `SELECT a.id FROM actors a
       WHERE a.uri = ? AND a.kind = 'remote' AND EXISTS (
         SELECT 1 FROM follows f JOIN actors l ON l.id = f.follower_id
         WHERE f.followed_id = a.id AND f.state = 'ACCEPTED' AND l.user_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM blocks b
                           WHERE b.blocker_id = l.user_id AND b.blocked_actor_id = a.id))`,
    )
    .pluck<number>();
  const byNote = db.prepare<Row>(`${SELECT} WHERE r.note_uri = ?`);
  const byId = db.prepare<Row>(`${SELECT} WHERE r.id = ?`);
  const insert = db
    .prepare(
      `INSERT INTO remote_entries (actor_id, note_uri, type, name, subtype, maker_name, rating,
         notes, status, tasting, photo_url, photo_path, published_at, updated_at, received_at)
       VALUES (@actorId, @noteUri, @type, @name, @subtype, @makerName, @rating, @notes, @status,
         @tasting, @photoUrl, @photoPath, @publishedAt, @updatedAt, @receivedAt)
       ON CONFLICT (note_uri) DO NOTHING RETURNING id`,
    )
    .pluck<number>();
  const insertActivity = db
    .prepare(
      `INSERT INTO activities (actor_id, type, remote_entry_id, created_at)
       VALUES (?, 'Create', ?, ?) RETURNING id`,
    )
    .pluck<number>();
  const update = db.prepare(
    `UPDATE remote_entries SET type = @type, name = @name, subtype = @subtype,
       maker_name = @makerName, rating = @rating, notes = @notes, status = @status,
       tasting = @tasting, photo_url = @photoUrl, photo_path = @photoPath, updated_at = @updatedAt
     WHERE id = @id AND updated_at < @updatedAt`,
  );
  const remove = db.prepare('DELETE FROM remote_entries WHERE id = ?');
  const photoPaths = db
    .prepare('SELECT photo_path FROM remote_entries WHERE photo_path IS NOT NULL')
    .pluck<string>();
  const ownerOfPhoto = db
    .prepare('SELECT id FROM remote_entries WHERE photo_path = ?')
    .pluck<number>();
  const ofActor = db.prepare<Row>(`${SELECT} WHERE a.uri = ?`);
  const countOfActor = db
    .prepare(
      `SELECT count(*) FROM remote_entries r JOIN actors a ON a.id = r.actor_id WHERE a.uri = ?`,
    )
    .pluck<number>();
  // One statement per number of ids (a feed page holds at most 50 remote items).
  const byIdsStatements = new Map<number, Statement<Row>>();

  const values = (fields: RemoteEntryFields) => ({
    ...remoteEntryBasicsOf(fields),
    tasting: fields.tasting ? JSON.stringify(fields.tasting) : null,
    updatedAt: fields.updatedAt.getTime(),
  });

  return {
    /**
     * The actor row of a remote actor that at least one local user follows (ACCEPTED) and has
     * not blocked: entries of an actor blocked by every local follower are not stored.
     */
    followedActorId(actorUri: string): Promise<number | undefined> {
      return followedActor.get(actorUri);
    },

    async findByNote(noteUri: string): Promise<RemoteEntryRecord | undefined> {
      const row = await byNote.get(noteUri);
      return row ? recordOf(row) : undefined;
    },

    async findById(id: number): Promise<RemoteEntryRecord | undefined> {
      const row = await byId.get(id);
      return row ? recordOf(row) : undefined;
    },

    /** The entries that still exist, in the order of `ids`. */
    async byIds(ids: readonly number[]): Promise<RemoteEntryRecord[]> {
      if (ids.length === 0) return [];
      let statement = byIdsStatements.get(ids.length);
      if (!statement) {
        statement = db.prepare<Row>(`${SELECT} WHERE r.id IN (${ids.map(() => '?').join(',')})`);
        if (byIdsStatements.size < MAX_CACHED_STATEMENTS)
          byIdsStatements.set(ids.length, statement);
      }
      const rows = await statement.all(...ids);
      const found = new Map(rows.map((row) => [row.id as number, recordOf(row)]));
      return ids.flatMap((id) => found.get(id) ?? []);
    },

    /**
     * Stores a new entry and the Create it arrived in; undefined (and nothing written) when an
     * entry with this Note id is already stored. Call inside a transaction.
     */
    async insert(input: {
      actorId: number;
      noteUri: string;
      fields: RemoteEntryFields;
      photoUrl: string | null;
      photoPath: string | null;
      receivedAt: number;
    }): Promise<{ entryId: number; activityId: number } | undefined> {
      const entryId = await insert.get({
        ...values(input.fields),
        actorId: input.actorId,
        noteUri: input.noteUri,
        photoUrl: input.photoUrl,
        photoPath: input.photoPath,
        publishedAt: input.fields.publishedAt.getTime(),
        receivedAt: input.receivedAt,
      });
      if (entryId === undefined) return undefined;
      const activityId = (await insertActivity.get(input.actorId, entryId, input.receivedAt))!;
      return { entryId, activityId };
    },

    /** Changes an entry if `fields.updatedAt` is later than what is stored; whether it did. */
    async update(
      id: number,
      fields: RemoteEntryFields,
      photo: { photoUrl: string | null; photoPath: string | null },
    ): Promise<boolean> {
      return (await update.run({ ...values(fields), ...photo, id })).changes > 0;
    },

    /** Deletes an entry; its feed items and received activity go with it (cascade). */
    async remove(id: number): Promise<boolean> {
      return (await remove.run(id)).changes > 0;
    },

    /** Every stored entry of a remote actor. */
    async ofActor(actorUri: string): Promise<RemoteEntryRecord[]> {
      return (await ofActor.all(actorUri)).map(recordOf);
    },

    /** How many entries of a remote actor are stored (the volume cap, src/inbound-limits/). */
    async countOfActor(actorUri: string): Promise<number> {
      return (await countOfActor.get(actorUri))!;
    },

    /** Every local photo copy a remote entry holds (for the uploads sweep). */
    allPhotoPaths(): Promise<string[]> {
      return photoPaths.all();
    },

    /** The remote entry a stored photo belongs to, if any. */
    ownerOfPhoto(storedPath: string): Promise<number | undefined> {
      return ownerOfPhoto.get(storedPath);
    },
  };
}

export type RemoteEntryRepository = ReturnType<typeof createRemoteEntryRepository>;
