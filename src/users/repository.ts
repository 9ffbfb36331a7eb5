import { and, asc, eq, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { createReadCache } from '../db/read-cache.ts';
import { users, type Role, type UserRow } from '../db/schema/index.ts';

/**
 * Data access for users: the only place that writes the users table. Other repositories read
 * it only to show a user's name or username beside their rows (docs/architecture.md, "Which
 * code queries which table").
 */
export function createUserRepository(db: Db) {
  // Read on every signed-in request: prepared once.
  const byId = db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare();
  const cache = createReadCache<number, UserRow>(db.$client);
  return {
    /** Memoized until the database changes (src/db/read-cache.ts): read on every request. */
    findById(id: number): UserRow | undefined {
      return cache.get(id, () => byId.get({ id }));
    },
    findByUsername(username: string): UserRow | undefined {
      return db.select().from(users).where(eq(users.username, username)).get();
    },
    /** A user visible to the fediverse: exists and has activityPubEnabled. */
    findFederatedByUsername(username: string): UserRow | undefined {
      return db
        .select()
        .from(users)
        .where(and(eq(users.username, username), eq(users.activityPubEnabled, true)))
        .get();
    },
    list(): UserRow[] {
      return db.select().from(users).orderBy(asc(users.username)).all();
    },
    count(): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(users)
          .get()?.n ?? 0
      );
    },
    countFederated(): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(users)
          .where(eq(users.activityPubEnabled, true))
          .get()?.n ?? 0
      );
    },
    countAdmins(): number {
      return (
        db
          .select({ n: sql<number>`count(*)` })
          .from(users)
          .where(eq(users.role, 'ADMIN'))
          .get()?.n ?? 0
      );
    },
    insert(values: {
      username: string;
      fullName: string;
      email: string;
      role: Role;
      passwordHash: string;
    }): UserRow {
      return db.insert(users).values(values).returning().get();
    },
    /** Every stored avatar path, for the uploads sweep (src/media/sweep.ts). */
    allAvatarPaths(): string[] {
      return db
        .select({ avatarPath: users.avatarPath })
        .from(users)
        .where(sql`${users.avatarPath} is not null`)
        .all()
        .map((r) => r.avatarPath!);
    },
    update(
      id: number,
      values: Partial<Omit<UserRow, 'id' | 'username' | 'createdAt'>>,
    ): UserRow | undefined {
      if (Object.keys(values).length === 0) return this.findById(id);
      return db.update(users).set(values).where(eq(users.id, id)).returning().get();
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
