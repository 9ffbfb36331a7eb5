import type { Database } from '../src/db/database.ts';

/** A row of federation_queue as a listener takes it. */
export interface QueueRow {
  id: number;
  message: string;
  ordering_key: string | null;
  locked_until: number;
  attempts: number;
}

export interface InsertRow {
  channel: string;
  message: string;
  host: string | null;
  orderingKey: string | null;
  notBefore: number;
  now: number;
}

export interface ClaimParams {
  channel: string;
  lease: number;
  now: number;
  /** Leased rows of one host at most; a due row of a host at the limit is passed over. */
  perHost: number;
}

/**
 * The oldest due message of the channel that is not leased, not waiting behind an earlier
 * message with the same ordering key, and not bound for a host that already has perHost
 * messages leased (in any process).
 */
const CANDIDATE = `SELECT q.id FROM federation_queue q
  WHERE q.channel = @channel
    AND q.not_before <= @now
    AND (q.locked_until IS NULL OR q.locked_until <= @now)
    AND (q.ordering_key IS NULL OR NOT EXISTS (
      SELECT 1 FROM federation_queue e
      WHERE e.ordering_key = q.ordering_key AND e.channel = q.channel AND e.id < q.id))
    AND (q.host IS NULL OR (
      SELECT count(*) FROM federation_queue h
      WHERE h.host = q.host AND h.locked_until > @now) < @perHost)
  ORDER BY q.not_before, q.id
  LIMIT 1`;

/** The statements of SqliteMessageQueue (message-queue.ts) on table federation_queue. */
export function prepareQueueStatements(db: Database) {
  return {
    // Given an InsertRow.
    insert: db.prepare(
      `INSERT INTO federation_queue (channel, message, host, ordering_key, not_before, created_at)
       VALUES (@channel, @message, @host, @orderingKey, @notBefore, @now)`,
    ),
    // The oldest due message of the channel (CANDIDATE), leased; given ClaimParams. One
    // UPDATE ... RETURNING: two listeners, in any process, never take the same message. On
    // SQLite, writes run one at a time. On PostgreSQL, claims run side by side: the candidate
    // is locked (FOR UPDATE), one that another claim has locked is skipped, and one that another
    // claim leased meanwhile is read again and passed over (the UPDATE checks the lease again).
    // There, the per-host count may miss a lease another process takes at the same instant.
    claim: db.prepare<QueueRow>({
      sqlite: `UPDATE federation_queue SET locked_until = @lease, attempts = attempts + 1
               WHERE id = (${CANDIDATE})
               RETURNING id, message, ordering_key, locked_until, attempts`,
      postgres: `UPDATE federation_queue SET locked_until = @lease, attempts = attempts + 1
                 WHERE id = (${CANDIDATE} FOR UPDATE OF q SKIP LOCKED)
                   AND (locked_until IS NULL OR locked_until <= @now)
                 RETURNING id, message, ordering_key, locked_until, attempts`,
    }),
    renew: db.prepare(
      'UPDATE federation_queue SET locked_until = ? WHERE id = ? AND locked_until = ?',
    ),
    ack: db.prepare('DELETE FROM federation_queue WHERE id = ?'),
    release: db.prepare(
      `UPDATE federation_queue SET locked_until = NULL, not_before = ?
       WHERE id = ? AND locked_until = ?`,
    ),
    drop: db.prepare('DELETE FROM federation_queue WHERE id = ?'),
    // When the channel's next message becomes due or a lease runs out, whichever is first
    // (future only: messages that are due now but wait behind their ordering key or their
    // host's limit are woken by completions). The later of the two is a CASE: SQLite's
    // max(a, b) is PostgreSQL's greatest(a, b).
    nextDue: db.prepare<{ due: number | null }>(
      `SELECT min(due) AS due FROM (
         SELECT CASE WHEN locked_until > not_before THEN locked_until ELSE not_before END AS due
         FROM federation_queue WHERE channel = @channel) AS waiting
       WHERE due > @now`,
    ),
    depth: db.prepare<{ queued: number; ready: number | null; delayed: number | null }>(
      `SELECT count(*) AS queued,
              sum(CASE WHEN not_before <= @now THEN 1 ELSE 0 END) AS ready,
              sum(CASE WHEN not_before > @now THEN 1 ELSE 0 END) AS delayed
       FROM federation_queue
       WHERE channel = @channel AND (locked_until IS NULL OR locked_until <= @now)`,
    ),
  };
}

export type QueueStatements = ReturnType<typeof prepareQueueStatements>;
