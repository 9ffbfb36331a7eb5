import type { Database } from '../db/database.ts';
import { createReadCache } from '../db/read-cache.ts';
import { optionalRow, rowReader } from '../db/rows.ts';
import { sessions, type SessionRow } from '../db/schema/index.ts';

const readSession = rowReader(sessions);
const readOptionalSession = optionalRow(readSession);

/** Data access for sessions: the only place that queries the sessions table. */
export function createSessionRepository(db: Database) {
  // Read on every signed-in request: prepared once.
  const byIdHash = db.prepare('SELECT * FROM sessions WHERE id_hash = ?');
  const insert = db.prepare(
    `INSERT INTO sessions
       (id_hash, user_id, created_at, last_seen_at, expires_at, user_agent, ip_address,
        reauthenticated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ofUser = db.prepare('SELECT * FROM sessions WHERE user_id = ?');
  const touch = db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?');
  const reauthenticated = db.prepare(
    'UPDATE sessions SET reauthenticated_at = ? WHERE id_hash = ?',
  );
  const remove = db.prepare('DELETE FROM sessions WHERE id_hash = ?');
  const removeOfUser = db.prepare('DELETE FROM sessions WHERE user_id = ?');
  const removeOfUserExcept = db.prepare('DELETE FROM sessions WHERE user_id = ? AND id_hash <> ?');
  const removeExpired = db.prepare('DELETE FROM sessions WHERE expires_at < ? OR last_seen_at < ?');
  const cache = createReadCache<string, SessionRow>(db);
  const readByIdHash = async (idHash: string) => readOptionalSession(await byIdHash.get(idHash));
  return {
    async insert(row: SessionRow): Promise<void> {
      await insert.run(
        row.idHash,
        row.userId,
        row.createdAt.getTime(),
        row.lastSeenAt.getTime(),
        row.expiresAt.getTime(),
        row.userAgent,
        row.ipAddress,
        row.reauthenticatedAt?.getTime() ?? null,
      );
    },
    /**
     * Memoized until the database changes (src/db/read-cache.ts): read on every request.
     */
    findByIdHash(idHash: string): Promise<SessionRow | undefined> {
      return cache.get(idHash, readByIdHash);
    },
    /** findByIdHash's memoized answer at once, when it has one (src/db/read-cache.ts, `peek`). */
    peekByIdHash(idHash: string): { value: SessionRow | undefined } | undefined {
      return cache.peek(idHash);
    },
    async listForUser(userId: number): Promise<SessionRow[]> {
      return (await ofUser.all(userId)).map(readSession);
    },
    async touch(idHash: string, lastSeenAt: Date): Promise<void> {
      await touch.run(lastSeenAt.getTime(), idHash);
    },
    /** Records a re-authentication; false when the session no longer exists. */
    async setReauthenticatedAt(idHash: string, at: Date): Promise<boolean> {
      return (await reauthenticated.run(at.getTime(), idHash)).changes > 0;
    },
    async delete(idHash: string): Promise<void> {
      await remove.run(idHash);
    },
    async deleteForUser(userId: number, exceptIdHash?: string): Promise<number> {
      const result =
        exceptIdHash === undefined
          ? await removeOfUser.run(userId)
          : await removeOfUserExcept.run(userId, exceptIdHash);
      return result.changes;
    },
    async deleteExpired(now: Date, idleSince: Date): Promise<number> {
      return (await removeExpired.run(now.getTime(), idleSince.getTime())).changes;
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
