import type { Database } from '../db/database.ts';
import { createReadCache } from '../db/read-cache.ts';
import { optionalRow, rowReader } from '../db/rows.ts';
import { apiTokens, type ApiTokenRow } from '../db/schema/index.ts';

export type NewApiToken = Omit<ApiTokenRow, 'id'>;

const readToken = rowReader(apiTokens);
const readOptionalToken = optionalRow(readToken);

/** Data access for access tokens: the only place that queries the api_tokens table. */
export function createTokenRepository(db: Database) {
  // Read on every token request: prepared once, memoized as sessions are.
  const bySecretHash = db.prepare('SELECT * FROM api_tokens WHERE secret_hash = ?');
  const insert = db.prepare(
    `INSERT INTO api_tokens (user_id, name, scope, secret_hash, created_at, last_used_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
  );
  const byId = db.prepare('SELECT * FROM api_tokens WHERE id = ?');
  const ofUser = db.prepare('SELECT * FROM api_tokens WHERE user_id = ? ORDER BY id DESC');
  const countOfUser = db
    .prepare('SELECT count(*) FROM api_tokens WHERE user_id = ?')
    .pluck<number>();
  const all = db.prepare(
    `SELECT api_tokens.*, users.username AS username
     FROM api_tokens INNER JOIN users ON users.id = api_tokens.user_id
     ORDER BY users.username ASC, api_tokens.id DESC`,
  );
  const touch = db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM api_tokens WHERE id = ?');
  const cache = createReadCache<string, ApiTokenRow>(db);
  const readBySecretHash = async (secretHash: string) =>
    readOptionalToken(await bySecretHash.get(secretHash));
  return {
    async insert(row: NewApiToken): Promise<ApiTokenRow> {
      return readToken(
        await insert.get(
          row.userId,
          row.name,
          row.scope,
          row.secretHash,
          row.createdAt.getTime(),
          row.lastUsedAt?.getTime() ?? null,
          row.expiresAt?.getTime() ?? null,
        ),
      );
    },
    /**
     * Memoized until the database changes (src/db/read-cache.ts): read on every request.
     */
    findBySecretHash(secretHash: string): Promise<ApiTokenRow | undefined> {
      return cache.get(secretHash, readBySecretHash);
    },
    async findById(id: number): Promise<ApiTokenRow | undefined> {
      return readOptionalToken(await byId.get(id));
    },
    /** A user's tokens, newest first. */
    async listForUser(userId: number): Promise<ApiTokenRow[]> {
      return (await ofUser.all(userId)).map(readToken);
    },
    /** How many tokens a user has (expired ones included, until revoked). */
    async countForUser(userId: number): Promise<number> {
      return (await countOfUser.get(userId))!;
    },
    /** Every token with its owner's username, by username then newest first. */
    async listAll(): Promise<(ApiTokenRow & { username: string })[]> {
      return (await all.all()).map((row) => ({
        ...readToken(row),
        username: (row as { username: string }).username,
      }));
    },
    async touch(id: number, lastUsedAt: Date): Promise<void> {
      await touch.run(lastUsedAt.getTime(), id);
    },
    async delete(id: number): Promise<boolean> {
      return (await remove.run(id)).changes > 0;
    },
  };
}

export type TokenRepository = ReturnType<typeof createTokenRepository>;
