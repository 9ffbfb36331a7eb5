import { logger } from '../logger.ts';
import type { BackupService } from './service.ts';

const HOUR = 60 * 60_000;
/** With no scheduled backup yet, the first comes this long after start (not during it). */
export const FIRST_BACKUP_DELAY_MS = 10 * 60_000;

/**
 * How long until the next scheduled backup: an interval after the newest scheduled one (at
 * least a minute from now, so that an overdue backup does not land on a start), or
 * FIRST_BACKUP_DELAY_MS when there is none.
 */
export function nextScheduledDelay(
  newestScheduledAt: string | undefined,
  intervalHours: number,
  now: number,
): number {
  if (newestScheduledAt === undefined) return FIRST_BACKUP_DELAY_MS;
  return Math.max(60_000, Date.parse(newestScheduledAt) + intervalHours * HOUR - now);
}

/**
 * Scheduled backups (VAULT_BACKUP_INTERVAL_HOURS; off when null): the next one is due an
 * interval after the newest scheduled backup, or FIRST_BACKUP_DELAY_MS after start when there
 * is none (so a vault restarted more often than the interval still gets its backups). Each one
 * is followed by pruning to the newest VAULT_BACKUP_KEEP scheduled backups. Off as well when
 * the vault makes no backups (on PostgreSQL: src/backups/service.ts).
 */
export function startBackupSchedule(
  backups: BackupService,
  intervalHours: number | null,
  now: () => number = Date.now,
): { stop(): void } {
  if (intervalHours === null) return { stop() {} };
  if (backups.unavailable !== null) {
    logger.info('No scheduled backups: {reason}', { reason: backups.unavailable });
    return { stop() {} };
  }
  const interval = intervalHours * HOUR;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const nextDelay = () =>
    nextScheduledDelay(
      backups.list().find((b) => b.trigger === 'scheduled')?.createdAt,
      intervalHours,
      now(),
    );

  /** When the planned backup is due (the timer may fire early: setTimeout's cap). */
  let dueAt = 0;
  function plan(delay: number) {
    if (stopped) return;
    dueAt = now() + delay;
    // setTimeout holds at most 2^31-1 ms (about 24.8 days); longer waits are re-planned.
    // run() catches its own failures; the catch here only keeps a surprise from going unheard.
    const fire = () => {
      void run().catch((error: unknown) =>
        logger.error('The scheduled backup failed: {error}', { error }),
      );
    };
    timer = setTimeout(fire, Math.min(delay, 2 ** 31 - 1));
    timer.unref();
  }

  async function run() {
    if (dueAt - now() > 1_000) return plan(dueAt - now());
    if (!backups.busy) {
      try {
        const backup = await backups.create('scheduled');
        const pruned = backups.prune();
        logger.info('Made the scheduled backup {name}; removed {pruned} older ones', {
          name: backup.name,
          pruned: pruned.length,
        });
      } catch (error) {
        logger.error('The scheduled backup failed: {error}', { error });
      }
    }
    plan(interval);
  }

  plan(nextDelay());
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
