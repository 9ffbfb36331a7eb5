import { and, eq, lt, ne, or, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { createReadCache } from '../db/read-cache.ts';
import { sessions, type SessionRow } from '../db/schema/index.ts';

/** Data access for sessions: the only place that queries the sessions table. */
export function createSessionRepository(db: Db) {
  // Read on every signed-in request: prepared once.
  const byIdHash = db
    .select()
    .from(sessions)
    .where(eq(sessions.idHash, sql.placeholder('idHash')))
    .prepare();
  const cache = createReadCache<string, SessionRow>(db.$client);
  return {
    insert(row: SessionRow): void {
      db.insert(sessions).values(row).run();
    },
    /** Memoized until the database changes (src/db/read-cache.ts): read on every request. */
    findByIdHash(idHash: string): SessionRow | undefined {
      return cache.get(idHash, () => byIdHash.get({ idHash }));
    },
    listForUser(userId: number): SessionRow[] {
      return db.select().from(sessions).where(eq(sessions.userId, userId)).all();
    },
    touch(idHash: string, lastSeenAt: Date): void {
      db.update(sessions).set({ lastSeenAt }).where(eq(sessions.idHash, idHash)).run();
    },
    /** Records a re-authentication; false when the session no longer exists. */
    setReauthenticatedAt(idHash: string, at: Date): boolean {
      return (
        db.update(sessions).set({ reauthenticatedAt: at }).where(eq(sessions.idHash, idHash)).run()
          .changes > 0
      );
    },
    delete(idHash: string): void {
      db.delete(sessions).where(eq(sessions.idHash, idHash)).run();
    },
    deleteForUser(userId: number, exceptIdHash?: string): number {
      const where =
        exceptIdHash === undefined
          ? eq(sessions.userId, userId)
          : and(eq(sessions.userId, userId), ne(sessions.idHash, exceptIdHash));
      return db.delete(sessions).where(where).run().changes;
    },
    deleteExpired(now: Date, idleSince: Date): number {
      return db
        .delete(sessions)
        .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, idleSince)))
        .run().changes;
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
