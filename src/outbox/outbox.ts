import type { ActivityRow, ActivityType } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { performance } from 'node:perf_hooks';
import { logger } from '../logger.ts';
import type { NewActivity, OutboxRepository } from './repository.ts';

/**
 * Delivers one activity to its recipients of one kind: local users (feed items, notifications)
 * or remote servers (handed to Fedify's queue, federation/entry-delivery.ts and
 * follow-outbox.ts). It runs inside the delivery's transaction, so it must be
 * synchronous, and idempotent: an activity may be delivered again after a crash.
 *
 * A handler with many recipients may deliver in parts: it returns a resume token (say, the
 * last follower it reached) and is called again with it, in a later transaction, until it
 * returns nothing. The token is stored with the outbox row, so a restart resumes there.
 */
export type DeliveryHandler = (activity: ActivityRow, resume: string | undefined) => string | void;

/**
 * Thrown by a handler whose delivery is under way outside the transaction (an activity being
 * handed to the federation queue): the row is tried again after `retryInMs`, without counting
 * as a failed attempt and without a warning.
 */
export class DeliveryDeferred extends Error {
  readonly retryInMs: number;
  constructor(message: string, retryInMs = 200) {
    super(message);
    this.name = 'DeliveryDeferred';
    this.retryInMs = retryInMs;
  }
}

/** Where a delivery done in parts stopped: the handler's position in its list, and its token. */
interface Progress {
  handler: number;
  resume: string;
}

function parseProgress(stored: string | null): Progress | undefined {
  if (stored === null) return undefined;
  try {
    const value = JSON.parse(stored) as Partial<Progress>;
    if (typeof value.handler === 'number' && typeof value.resume === 'string') {
      return { handler: value.handler, resume: value.resume };
    }
  } catch {
    // An unreadable token only costs a delivery from the start: handlers are idempotent.
  }
  return undefined;
}

const BATCH = 50;
/** How long one run of deliveries may hold the event loop before letting requests in. */
const RUN_BUDGET_MS = 4;
const MAX_BACKOFF_MS = 60 * 60_000;
/** Activities whose only purpose is to be delivered: forgotten once they are. */
const TRANSIENT: ReadonlySet<ActivityType> = new Set([
  'Update',
  'Delete',
  'Undo',
  'Accept',
  'Reject',
]);

/**
 * The durable outbox. A service records an activity with `record` inside the transaction of
 * the write that caused it; once that commits, the outbox delivers it in the background (never
 * on the request path) through the handlers registered for its type. Each delivery and the
 * removal of its outbox row commit together; a failing delivery is retried with a growing
 * delay, so every activity is delivered at least once and a failure never fails the user's
 * action. See docs/social.md.
 */
export function createOutbox(deps: {
  repo: OutboxRepository;
  transaction: Transaction;
  now?: () => number;
}) {
  const { repo, transaction } = deps;
  const now = deps.now ?? Date.now;
  const handlers = new Map<ActivityType, DeliveryHandler[]>();
  let scheduled = false;
  let running = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let waiters: (() => void)[] = [];

  function deliver(): void {
    scheduled = false;
    if (stopped) return; // stopped (the database may be closed) after this run was scheduled
    running = true;
    try {
      const batch = repo.due(now(), BATCH);
      const deadline = performance.now() + RUN_BUDGET_MS;
      let more = batch.length === BATCH;
      for (const [index, { outboxId, attempts, activity, progress }] of batch.entries()) {
        if (performance.now() > deadline) {
          more ||= index < batch.length;
          break;
        }
        try {
          const unfinished = transaction(() => {
            const list = handlers.get(activity.type) ?? [];
            const from = parseProgress(progress);
            for (let h = from?.handler ?? 0; h < list.length; h++) {
              const resume = list[h]!(activity, h === from?.handler ? from.resume : undefined);
              if (typeof resume === 'string') {
                repo.saveProgress(outboxId, JSON.stringify({ handler: h, resume }));
                return true;
              }
            }
            if (TRANSIENT.has(activity.type)) repo.forget(activity.id);
            else repo.delivered(outboxId);
            return false;
          });
          more ||= unfinished;
        } catch (error) {
          if (error instanceof DeliveryDeferred) {
            repo.deferTo(outboxId, now() + error.retryInMs);
            logger.debug('Delivery of activity {id} deferred: {reason}', {
              id: activity.id,
              reason: error.message,
            });
            continue;
          }
          const delay = Math.min(1000 * 2 ** attempts, MAX_BACKOFF_MS);
          repo.retryLater(outboxId, now() + delay, String(error));
          logger.warn('Delivering activity {id} ({type}) failed; retrying in {delay} ms: {error}', {
            id: activity.id,
            type: activity.type,
            delay,
            error,
          });
        }
      }
      if (more) schedule(); // more is due: carry on after letting requests in
    } finally {
      running = false;
    }
    if (!scheduled) {
      planRetry();
      const due = repo.nextDueAt();
      if (due === null || due > now()) {
        const settled = waiters;
        waiters = [];
        for (const resolve of settled) resolve();
      }
    }
  }

  function schedule(): void {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(deliver);
  }

  /** Wakes up when the earliest retry falls due. */
  function planRetry(): void {
    clearTimeout(timer);
    const due = repo.nextDueAt();
    if (due === null || stopped) return;
    timer = setTimeout(schedule, Math.max(0, due - now()));
    timer.unref();
  }

  return {
    /**
     * Records an activity and its delivery. Call it inside the write's `transaction()`; the
     * delivery starts after the current synchronous work (and so the transaction) has ended.
     */
    record(activity: NewActivity): number {
      const id = repo.record(activity);
      schedule();
      return id;
    },

    /** Registers how activities of `type` reach one kind of recipient. */
    on(type: ActivityType, handler: DeliveryHandler): void {
      handlers.set(type, [...(handlers.get(type) ?? []), handler]);
    },

    /** Delivers what a previous run left undelivered (delivery is on from the start). */
    start(): void {
      stopped = false;
      schedule();
    },

    /** Stops delivering (before the database closes); undelivered rows wait for the next start. */
    stop(): void {
      stopped = true;
      clearTimeout(timer);
    },

    /** Resolves once nothing is due any more (tests and the benchmark wait on it). */
    idle(): Promise<void> {
      if (stopped) return Promise.resolve();
      const due = repo.nextDueAt();
      if (!running && !scheduled && (due === null || due > now())) return Promise.resolve();
      if (!scheduled && !running) schedule();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
