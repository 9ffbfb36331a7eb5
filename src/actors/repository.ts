import type { Database } from '../db/database.ts';
import type { ActorRow } from '../db/schema/index.ts';

/** A local actor with what lists of people show of its user. */
export interface LocalActorSummary {
  actorId: number;
  userId: number;
  username: string;
  fullName: string;
  avatarPath: string | null;
}

/** What the vault keeps of a remote ActivityPub actor (its document, read by federation/). */
export interface RemoteActorData {
  uri: string;
  inboxUrl: string;
  sharedInboxUrl: string | null;
  /** '@name@host' */
  handle: string;
  displayName: string;
  /** Plain text (the actor's HTML summary reduced to text). */
  summary: string;
  avatarUrl: string | null;
}

/** A remote actor's document is fetched again when it is older than this (on lookup). */
export const REMOTE_ACTOR_STALE_MS = 24 * 60 * 60_000;

function actorOf(row: Record<string, unknown>): ActorRow {
  return {
    id: row.id as number,
    kind: row.kind as ActorRow['kind'],
    userId: row.user_id as number | null,
    uri: row.uri as string | null,
    inboxUrl: row.inbox_url as string | null,
    sharedInboxUrl: row.shared_inbox_url as string | null,
    displayName: row.display_name as string,
    handle: row.handle as string | null,
    summary: row.summary as string,
    avatarUrl: row.avatar_url as string | null,
    fetchedAt: row.fetched_at === null ? null : new Date(row.fetched_at as number),
    createdAt: new Date(row.created_at as number),
    updatedAt: new Date(row.updated_at as number),
  };
}

/**
 * Data access for actors: the only place that writes `actors` (other repositories read it to
 * show who did something, in the same statement as their rows). A local user's actor row is
 * made on first need (`localActorId`), so user creation (admin, CLI, first admin) needs no
 * change and a user who never takes part has none.
 */
export function createActorRepository(db: Database) {
  const insertLocal = db.prepare(
    `INSERT INTO actors (kind, user_id, created_at, updated_at) VALUES ('local', ?, ?, ?)
     ON CONFLICT (user_id) DO NOTHING`,
  );
  const idOfUser = db.prepare('SELECT id FROM actors WHERE user_id = ?').pluck<number>();
  const byId = db.prepare<Record<string, unknown>>('SELECT * FROM actors WHERE id = ?');
  const userOf = db.prepare('SELECT user_id FROM actors WHERE id = ?').pluck<number | null>();
  const ids = new Map<number, number>();
  const upsertRemote = db
    .prepare(
      `INSERT INTO actors (kind, uri, inbox_url, shared_inbox_url, handle, display_name, summary,
                         avatar_url, fetched_at, created_at, updated_at)
     VALUES ('remote', @uri, @inboxUrl, @sharedInboxUrl, @handle, @displayName, @summary,
             @avatarUrl, @at, @at, @at)
     ON CONFLICT (uri) DO UPDATE SET
       inbox_url = excluded.inbox_url, shared_inbox_url = excluded.shared_inbox_url,
       handle = excluded.handle, display_name = excluded.display_name,
       summary = excluded.summary, avatar_url = excluded.avatar_url,
       fetched_at = excluded.fetched_at, updated_at = excluded.updated_at
     WHERE actors.kind = 'remote'
     RETURNING id`,
    )
    .pluck<number>();
  const byUri = db.prepare<Record<string, unknown>>(
    "SELECT * FROM actors WHERE uri = ? AND kind = 'remote'",
  );
  const remoteActors = db.prepare<{ id: number; uri: string }>(
    "SELECT id, uri FROM actors WHERE kind = 'remote'",
  );
  const removeByUri = db.prepare("DELETE FROM actors WHERE uri = ? AND kind = 'remote'");

  return {
    /** The actor id of a local user, made if the user has none yet. */
    async localActorId(userId: number): Promise<number> {
      const known = ids.get(userId);
      if (known !== undefined) return known;
      let id = await idOfUser.get(userId);
      let made = false;
      if (id === undefined) {
        const t = Date.now();
        await insertLocal.run(userId, t, t);
        id = (await idOfUser.get(userId))!;
        made = true;
      }
      // Rows are never renumbered; a deleted user's id is never reused (AUTOINCREMENT). A row
      // made inside a transaction is remembered only once it is known to be committed: the
      // transaction may still roll it back.
      if (!made || !db.inTransaction()) ids.set(userId, id);
      return id;
    },

    /** The actor id of a local user if they have one (never makes one). */
    async existingLocalActorId(userId: number): Promise<number | undefined> {
      return ids.get(userId) ?? (await idOfUser.get(userId));
    },

    /** The local user an actor stands for, or null for a remote actor or an unknown id. */
    async userIdOf(actorId: number): Promise<number | null> {
      return (await userOf.get(actorId)) ?? null;
    },

    async findById(actorId: number): Promise<ActorRow | undefined> {
      const row = await byId.get(actorId);
      return row ? actorOf(row) : undefined;
    },

    /**
     * Stores a remote actor, once per URI: made on first sight, its fields replaced when its
     * document is read again (a lookup of a stale row, an Update(Person)). Returns its id.
     */
    async saveRemote(data: RemoteActorData, at: number): Promise<number> {
      const id = await upsertRemote.get({ ...data, at });
      if (id === undefined) throw new Error(`${data.uri} is not a remote actor`);
      return id;
    },

    /** Every remote actor the vault knows, by id and actor URI. */
    remoteActors(): Promise<{ id: number; uri: string }[]> {
      return remoteActors.all();
    },

    async findRemoteByUri(uri: string): Promise<ActorRow | undefined> {
      const row = await byUri.get(uri);
      return row ? actorOf(row) : undefined;
    },

    /**
     * Forgets a remote actor everywhere: its follows (both ways), feed items, remote entries,
     * activities and notifications go with it (foreign keys cascade). True if it was known.
     */
    async removeRemote(uri: string): Promise<boolean> {
      return (await removeByUri.run(uri)).changes > 0;
    },

    /** Whether a remote actor's stored document is old enough to be fetched again. */
    isStale(actor: ActorRow, now: number): boolean {
      return actor.fetchedAt === null || now - actor.fetchedAt.getTime() > REMOTE_ACTOR_STALE_MS;
    },
  };
}

export type ActorRepository = ReturnType<typeof createActorRepository>;
