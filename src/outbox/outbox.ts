import type { ActivityRow, ActivityType } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { performance } from 'node:perf_hooks';
import { logger } from '../logger.ts';
import type { NewActivity, OutboxRepository } from './repository.ts';
import { isTransient, remoteMayEmit } from './activities.ts';
import { createHandoffs, HANDOFF_LEASE_MS, type FederatingHandler } from './handoffs.ts';

export type { FederatingHandler } from './handoffs.ts';

/**
 * Delivers one activity to local recipients of one kind (feed items, notifications). It runs
 * inside the delivery's transaction, so it must be synchronous, and idempotent: an activity may
 * be delivered again after a crash.
 *
 * A handler with many recipients may deliver in parts: it returns a resume token (say, the
 * last follower it reached) and is called again with it, in a later transaction, until it
 * returns nothing. The token is stored with the outbox row, so a restart resumes there.
 */
export type DeliveryHandler = (activity: ActivityRow, resume: string | undefined) => string | void;

/**
 * Where a delivery stopped: in the local handlers (the handler's position in its list, and its
 * token), or past them, handing the activity to its federating handlers.
 */
type Progress = { handler: number; resume: string } | 'federating';

const FEDERATING = JSON.stringify({ federating: true });

function parseProgress(stored: string | null): Progress | undefined {
  if (stored === null) return undefined;
  try {
    const value = JSON.parse(stored) as Partial<{ handler: number; resume: string }> & {
      federating?: unknown;
    };
    if (value.federating === true) return 'federating';
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

const retryDelay = (attempts: number) => Math.min(1000 * 2 ** attempts, MAX_BACKOFF_MS);

/**
 * The durable outbox. A service records an activity with `record` inside the transaction of
 * the write that caused it; once that commits, the outbox delivers it in the background (never
 * on the request path), in two steps:
 *
 * 1. Local handlers (`on`): synchronous, in a transaction, in parts if they ask to resume.
 * 2. Federating handlers (`federate`, handoffs.ts): the one way an activity leaves the vault.
 *    Each turns the activity into a job (synchronously, in the transaction of step 1's last
 *    part) and, after that commits, `send`s it (asynchronously: into Fedify's queue).
 *
 * The outbox row goes (in one transaction with the last local part, or once every `send`
 * resolved); a failing handler or `send` is retried with a growing delay, so every activity is
 * delivered at least once and a failure never fails the user's action. See docs/social.md.
 */
export function createOutbox(deps: {
  repo: OutboxRepository;
  transaction: Transaction;
  /** The local user an actor stands for; null for a remote actor (src/actors/repository.ts). */
  localUserOf: (actorId: number) => number | null;
  now?: () => number;
}) {
  const { repo, transaction, localUserOf } = deps;
  const now = deps.now ?? Date.now;
  const handlers = new Map<ActivityType, DeliveryHandler[]>();
  let scheduled = false;
  let running = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let waiters: (() => void)[] = [];

  /** The row's activity is delivered: the row goes, and a transient activity with it. */
  function finish(outboxId: number, activity: ActivityRow): void {
    if (isTransient(activity.type)) repo.forget(activity.id);
    else repo.delivered(outboxId);
  }

  function failed(outboxId: number, attempts: number, activity: ActivityRow, error: unknown) {
    const delay = retryDelay(attempts);
    repo.retryLater(outboxId, now() + delay, String(error));
    logger.warn('Delivering activity {id} ({type}) failed; retrying in {delay} ms: {error}', {
      id: activity.id,
      type: activity.type,
      delay,
      error,
    });
  }

  const handoffs = createHandoffs({
    localUserOf,
    settled(outboxId, attempts, activity, error) {
      if (stopped) return; // the database may be closed: the row's lease brings it back
      try {
        if (error === undefined) transaction(() => finish(outboxId, activity));
        else failed(outboxId, attempts, activity, error);
      } catch (failure) {
        logger.error('Could not record the hand-off of activity {id}: {failure}', {
          id: activity.id,
          failure,
        });
      }
      schedule();
    },
  });

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
        if (handoffs.inFlight(outboxId)) {
          repo.deferTo(outboxId, now() + HANDOFF_LEASE_MS); // under way: renew the lease
          continue;
        }
        try {
          const step = transaction(() => {
            const from = parseProgress(progress);
            if (from !== 'federating') {
              const list = handlers.get(activity.type) ?? [];
              for (let h = from?.handler ?? 0; h < list.length; h++) {
                const resume = list[h]!(activity, h === from?.handler ? from.resume : undefined);
                if (typeof resume === 'string') {
                  repo.saveProgress(outboxId, JSON.stringify({ handler: h, resume }));
                  return 'unfinished' as const;
                }
              }
            }
            const jobs = handoffs.jobsOf(activity);
            if (jobs.length === 0) {
              finish(outboxId, activity);
              handoffs.release(outboxId);
              return 'done' as const;
            }
            // Local delivery is done; the row stays, leased, until the hand-off resolves.
            repo.lease(outboxId, FEDERATING, now() + HANDOFF_LEASE_MS);
            return jobs;
          });
          if (step === 'unfinished') more = true;
          else if (step !== 'done') handoffs.start(outboxId, attempts, activity, step);
        } catch (error) {
          failed(outboxId, attempts, activity, error);
        }
      }
      if (more) schedule(); // more is due: carry on after letting requests in
    } finally {
      running = false;
    }
    if (!scheduled) {
      planRetry();
      settleWaiters();
    }
  }

  function settleWaiters(): void {
    const due = repo.nextDueAt();
    if (handoffs.count() === 0 && (due === null || due > now())) {
      const settled = waiters;
      waiters = [];
      for (const resolve of settled) resolve();
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
     * An activity of a kind only local users emit (activities.ts) with a remote actor is a
     * mistake of its writer: it throws, and the write rolls back.
     */
    record(activity: NewActivity): number {
      if (!remoteMayEmit(activity.type) && localUserOf(activity.actorId) === null) {
        throw new Error(
          `A ${activity.type} activity is a local user's, not actor ${activity.actorId}'s`,
        );
      }
      const id = repo.record(activity);
      schedule();
      return id;
    },

    /** Registers how activities of `type` reach one kind of local recipient. */
    on(type: ActivityType, handler: DeliveryHandler): void {
      handlers.set(type, [...(handlers.get(type) ?? []), handler]);
    },

    /**
     * Registers a kind of activity that leaves the vault (handoffs.ts, docs/social.md): after
     * the local handlers, `job` picks what to send, and `send` hands it to Fedify's queue.
     */
    federate<Job>(handler: FederatingHandler<Job>): void {
      handoffs.register(handler);
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

    /**
     * Resolves once nothing is due any more and no hand-off is under way (tests and the
     * benchmark wait on it).
     */
    idle(): Promise<void> {
      if (stopped) return Promise.resolve();
      const due = repo.nextDueAt();
      const quiet = handoffs.count() === 0 && (due === null || due > now());
      if (!running && !scheduled && quiet) return Promise.resolve();
      if (!scheduled && !running) schedule();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
