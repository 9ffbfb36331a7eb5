import type Database from 'better-sqlite3';
import type { ActorRow } from '../db/schema/index.ts';

/** A local actor with what lists of people show of its user. */
export interface LocalActorSummary {
  actorId: number;
  userId: number;
  username: string;
  fullName: string;
  avatarPath: string | null;
}

/**
 * Data access for actors: the only place that queries `actors`. A local user's actor row is
 * made on first need (`localActorId`), so user creation (admin, CLI, first admin) needs no
 * change and a user who never takes part has none.
 */
export function createActorRepository(sqlite: Database.Database) {
  const insertLocal = sqlite.prepare(
    `INSERT INTO actors (kind, user_id, created_at, updated_at) VALUES ('local', ?, ?, ?)
     ON CONFLICT (user_id) DO NOTHING`,
  );
  const idOfUser = sqlite.prepare('SELECT id FROM actors WHERE user_id = ?').pluck();
  const byId = sqlite.prepare('SELECT * FROM actors WHERE id = ?');
  const userOf = sqlite.prepare('SELECT user_id FROM actors WHERE id = ?').pluck();
  const ids = new Map<number, number>();

  return {
    /** The actor id of a local user, made if the user has none yet. */
    localActorId(userId: number): number {
      const known = ids.get(userId);
      if (known !== undefined) return known;
      let id = idOfUser.get(userId) as number | undefined;
      let made = false;
      if (id === undefined) {
        const t = Date.now();
        insertLocal.run(userId, t, t);
        id = idOfUser.get(userId) as number;
        made = true;
      }
      // Rows are never renumbered; a deleted user's id is never reused (AUTOINCREMENT). A row
      // made inside a transaction is remembered only once it is known to be committed: the
      // transaction may still roll it back.
      if (!made || !sqlite.inTransaction) ids.set(userId, id);
      return id;
    },

    /** The local user an actor stands for, or null for a remote actor or an unknown id. */
    userIdOf(actorId: number): number | null {
      return (userOf.get(actorId) as number | null | undefined) ?? null;
    },

    findById(actorId: number): ActorRow | undefined {
      const row = byId.get(actorId) as Record<string, unknown> | undefined;
      if (!row) return undefined;
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
    },
  };
}

export type ActorRepository = ReturnType<typeof createActorRepository>;
