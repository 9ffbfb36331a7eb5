import type { Database } from '../db/database.ts';

/** A stored key: the request it was first used for and, once it has finished, its answer. */
export interface IdempotencyRecord {
  id: number;
  requestHash: string;
  /** Null while the first request is still being processed. */
  status: number | null;
  body: string | null;
  createdAt: number;
}

/** Data access for idempotency keys: the only place that queries the idempotency_keys table. */
export function createIdempotencyRepository(db: Database) {
  const find = db.prepare<Record<string, unknown>>(
    'SELECT id, request_hash, status, body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?',
  );
  const insert = db
    .prepare(
      'INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES (?, ?, ?, ?) RETURNING id',
    )
    .pluck<number>();
  const remove = db.prepare('DELETE FROM idempotency_keys WHERE id = ?');
  const complete = db.prepare('UPDATE idempotency_keys SET status = ?, body = ? WHERE id = ?');
  const prune = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  const removePending = db.prepare('DELETE FROM idempotency_keys WHERE status IS NULL');

  return {
    /**
     * In one transaction: the user's live row for the key, or a new pending row for the request
     * when there is none (a row created before `expiredBefore` is deleted first).
     */
    claim(userId: number, key: string, requestHash: string, at: number, expiredBefore: number) {
      return db.transaction(async () => {
        const row = await find.get(userId, key);
        if (row && (row.created_at as number) >= expiredBefore) {
          return { claimed: false as const, record: recordOf(row) };
        }
        if (row) await remove.run(row.id as number);
        const id = (await insert.get(userId, key, requestHash, at))!;
        return {
          claimed: true as const,
          record: { id, requestHash, status: null, body: null, createdAt: at },
        };
      });
    },
    async complete(id: number, status: number, body: string | null): Promise<void> {
      await complete.run(status, body, id);
    },
    async delete(id: number): Promise<void> {
      await remove.run(id);
    },
    /** Deletes every key whose request has not finished; answers how many. */
    async deletePending(): Promise<number> {
      return (await removePending.run()).changes;
    },
    /** Deletes every key created before `before`; answers how many. */
    async pruneBefore(before: number): Promise<number> {
      return (await prune.run(before)).changes;
    },
  };
}

function recordOf(row: Record<string, unknown>): IdempotencyRecord {
  return {
    id: row.id as number,
    requestHash: row.request_hash as string,
    status: row.status as number | null,
    body: row.body as string | null,
    createdAt: row.created_at as number,
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
