import { asc, desc, eq, sql } from '../db/orm.ts';
import type { Db } from '../db/client.ts';
import { createReadCache } from '../db/read-cache.ts';
import { apiTokens, users, type ApiTokenRow } from '../db/schema/index.ts';

export type NewApiToken = Omit<ApiTokenRow, 'id'>;

/** Data access for access tokens: the only place that queries the api_tokens table. */
export function createTokenRepository(db: Db) {
  // Read on every token request: prepared once, memoized as sessions are.
  const bySecretHash = db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.secretHash, sql.placeholder('secretHash')))
    .prepare();
  const cache = createReadCache<string, ApiTokenRow>(db.$client);
  return {
    insert(row: NewApiToken): ApiTokenRow {
      return db.insert(apiTokens).values(row).returning().get();
    },
    /** Memoized until the database changes (src/db/read-cache.ts): read on every request. */
    findBySecretHash(secretHash: string): ApiTokenRow | undefined {
      return cache.get(secretHash, () => bySecretHash.get({ secretHash }));
    },
    findById(id: number): ApiTokenRow | undefined {
      return db.select().from(apiTokens).where(eq(apiTokens.id, id)).get();
    },
    /** A user's tokens, newest first. */
    listForUser(userId: number): ApiTokenRow[] {
      return db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .orderBy(desc(apiTokens.id))
        .all();
    },
    /** How many tokens a user has (expired ones included, until revoked). */
    countForUser(userId: number): number {
      return db
        .select({ n: sql<number>`count(*)` })
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .get()!.n;
    },
    /** Every token with its owner's username, by username then newest first. */
    listAll(): (ApiTokenRow & { username: string })[] {
      return db
        .select({ token: apiTokens, username: users.username })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.userId))
        .orderBy(asc(users.username), desc(apiTokens.id))
        .all()
        .map(({ token, username }) => ({ ...token, username }));
    },
    touch(id: number, lastUsedAt: Date): void {
      db.update(apiTokens).set({ lastUsedAt }).where(eq(apiTokens.id, id)).run();
    },
    delete(id: number): boolean {
      return db.delete(apiTokens).where(eq(apiTokens.id, id)).run().changes > 0;
    },
  };
}

export type TokenRepository = ReturnType<typeof createTokenRepository>;
