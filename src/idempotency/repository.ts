import type Database from 'better-sqlite3';

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
export function createIdempotencyRepository(sqlite: Database.Database) {
  const find = sqlite.prepare<[number, string], Record<string, unknown>>(
    'SELECT id, request_hash, status, body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?',
  );
  const insert = sqlite.prepare<[number, string, string, number]>(
    'INSERT INTO idempotency_keys (user_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)',
  );
  const remove = sqlite.prepare<[number]>('DELETE FROM idempotency_keys WHERE id = ?');
  const complete = sqlite.prepare<[number, string | null, number]>(
    'UPDATE idempotency_keys SET status = ?, body = ? WHERE id = ?',
  );
  const prune = sqlite.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at < ?');
  const removePending = sqlite.prepare('DELETE FROM idempotency_keys WHERE status IS NULL');

  /**
   * In one transaction: the user's live row for the key, or a new pending row for the request
   * when there is none (a row created before `expiredBefore` is deleted first).
   */
  const claim = sqlite.transaction(
    (userId: number, key: string, requestHash: string, at: number, expiredBefore: number) => {
      const row = find.get(userId, key);
      if (row && (row.created_at as number) >= expiredBefore) {
        return { claimed: false as const, record: recordOf(row) };
      }
      if (row) remove.run(row.id as number);
      const id = Number(insert.run(userId, key, requestHash, at).lastInsertRowid);
      return {
        claimed: true as const,
        record: { id, requestHash, status: null, body: null, createdAt: at },
      };
    },
  );

  return {
    claim(userId: number, key: string, requestHash: string, at: number, expiredBefore: number) {
      return claim.immediate(userId, key, requestHash, at, expiredBefore);
    },
    complete(id: number, status: number, body: string | null): void {
      complete.run(status, body, id);
    },
    delete(id: number): void {
      remove.run(id);
    },
    /** Deletes every key whose request has not finished; answers how many. */
    deletePending(): number {
      return removePending.run().changes;
    },
    /** Deletes every key created before `before`; answers how many. */
    pruneBefore(before: number): number {
      return prune.run(before).changes;
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
