import type { Database } from '../db/database.ts';
import type { ActivityRow, ActivityType } from '../db/schema/index.ts';
import { encodePayload, type NewActivity } from './activities.ts';

export type { NewActivity } from './activities.ts';

export interface DueDelivery {
  outboxId: number;
  attempts: number;
  activity: ActivityRow;
  /** Where a delivery done in parts stopped (JSON), or null. */
  progress: string | null;
}

function activityOf(row: Record<string, unknown>): ActivityRow {
  return {
    id: row.activity_id as number,
    actorId: row.actor_id as number,
    type: row.type as ActivityType,
    beverageId: row.beverage_id as number | null,
    objectActorId: row.object_actor_id as number | null,
    shareId: row.share_id as number | null,
    remoteEntryId: (row.remote_entry_id as number | null | undefined) ?? null,
    payload: row.payload as string | null,
    createdAt: new Date(row.created_at as number),
  };
}

/**
 * Data access for activities and the outbox: the only place that queries `outbox`, and that
 * writes `activities` but for the Create of a received remote entry
 * (src/remote-entries/repository.ts), which has no outbox row.
 */
export function createOutboxRepository(db: Database) {
  const insertActivity = db
    .prepare(
      `INSERT INTO activities (actor_id, type, beverage_id, object_actor_id, share_id,
         remote_entry_id, payload, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .pluck();
  const insertOutbox = db.prepare(
    'INSERT INTO outbox (activity_id, next_attempt_at, created_at) VALUES (?, ?, ?)',
  );
  const due = db.prepare(
    `SELECT o.id AS outbox_id, o.attempts, o.progress, a.id AS activity_id, a.actor_id, a.type, a.beverage_id,
            a.object_actor_id, a.share_id, a.remote_entry_id, a.payload, a.created_at
     FROM outbox o JOIN activities a ON a.id = o.activity_id
     WHERE o.next_attempt_at <= ? ORDER BY o.next_attempt_at, o.id LIMIT ?`,
  );
  const remove = db.prepare('DELETE FROM outbox WHERE id = ?');
  const removeActivity = db.prepare('DELETE FROM activities WHERE id = ?');
  const retryLater = db.prepare(
    'UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?',
  );
  const deferTo = db.prepare('UPDATE outbox SET next_attempt_at = ? WHERE id = ?');
  const saveProgress = db.prepare('UPDATE outbox SET progress = ? WHERE id = ?');
  const lease = db.prepare('UPDATE outbox SET progress = ?, next_attempt_at = ? WHERE id = ?');
  const nextDue = db.prepare('SELECT min(next_attempt_at) FROM outbox').pluck();
  const count = db.prepare('SELECT count(*) FROM outbox').pluck();

  return {
    /** Records an activity and its outbox row. Call it inside the write's transaction. */
    async record(activity: NewActivity): Promise<number> {
      const id = Number(
        await insertActivity.get(
          activity.actorId,
          activity.type,
          activity.beverageId ?? null,
          activity.objectActorId ?? null,
          activity.shareId ?? null,
          activity.remoteEntryId ?? null,
          encodePayload(activity),
          activity.createdAt,
        ),
      );
      await insertOutbox.run(id, activity.createdAt, activity.createdAt);
      return id;
    },

    /** Deliveries due at `now`, oldest first. */
    async due(now: number, limit: number): Promise<DueDelivery[]> {
      return ((await due.all(now, limit)) as Record<string, unknown>[]).map((row) => ({
        outboxId: row.outbox_id as number,
        attempts: row.attempts as number,
        activity: activityOf(row),
        progress: row.progress as string | null,
      }));
    },

    async delivered(outboxId: number): Promise<void> {
      await remove.run(outboxId);
    },

    /** Drops an activity no one will read again (its outbox row goes with it). */
    async forget(activityId: number): Promise<void> {
      await removeActivity.run(activityId);
    },

    /** Keeps where a delivery in parts got to; the row stays due. */
    async saveProgress(outboxId: number, progress: string): Promise<void> {
      await saveProgress.run(progress, outboxId);
    },

    /**
     * Keeps the row while its activity is handed over outside the transaction: its progress,
     * and not due before `until` (so a crash meanwhile brings it back then).
     */
    async lease(outboxId: number, progress: string, until: number): Promise<void> {
      await lease.run(progress, until, outboxId);
    },

    /** Tries the row again at `at`, not counting an attempt (a delivery under way elsewhere). */
    async deferTo(outboxId: number, at: number): Promise<void> {
      await deferTo.run(at, outboxId);
    },

    async retryLater(outboxId: number, at: number, error: string): Promise<void> {
      await retryLater.run(at, error.slice(0, 500), outboxId);
    },

    /** When the next delivery falls due (null when the outbox is empty). */
    async nextDueAt(): Promise<number | null> {
      return ((await nextDue.get()) as number | null) ?? null;
    },

    async size(): Promise<number> {
      return (await count.get()) as number;
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
