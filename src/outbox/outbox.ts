import type { ActivityRow, ActivityType } from '../db/schema/index.ts';
import type { Transaction } from '../db/transaction.ts';
import { AsyncResource } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { logger } from '../logger.ts';
import type { NewActivity, OutboxRepository } from './repository.ts';
import { isTransient, remoteMayEmit } from './activities.ts';
import { answerUnderWay } from './answering.ts';
import { createHandoffs, HANDOFF_LEASE_MS, type FederatingHandler } from './handoffs.ts';

export type { FederatingHandler } from './handoffs.ts';

/**
 * Delivers one activity to local recipients of one kind (feed items, notifications). It runs
 * inside the delivery's transaction, so it must await nothing but the database, and be
 * idempotent: an activity may be delivered again after a crash.
 *
 * A handler with many recipients may deliver in parts: it returns a resume token (say, the
 * last follower it reached) and is called again with it, in a later transaction, until it
 * returns nothing. The token is stored with the outbox row, so a restart resumes there.
 */
export type DeliveryHandler = (
  activity: ActivityRow,
  resume: string | undefined,
) => Promise<string | void>;

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
 * 1. Local handlers (`on`): in a transaction, in parts if they ask to resume.
 * 2. Federating handlers (`federate`, handoffs.ts): the one way an activity leaves the vault.
 *    Each turns the activity into a job (in the transaction of step 1's last part, reading
 *    only the database) and, after that commits, `send`s it (into Fedify's queue).
 *
 * One run of deliveries at a time takes the due rows in order (a run asked for while one is
 * under way follows it), so rows are handled oldest first and never twice at once. Runs start
 * outside the caller's async context (`record` is called inside a transaction: its delivery
 * must not join it), and read the due rows in a transaction of their own, so they begin once
 * that transaction has ended.
 *
 * The outbox row goes (in one transaction with the last local part, or once every `send`
 * resolved); a failing handler or `send` is retried with a growing delay, so every activity is
 * delivered at least once and a failure never fails the user's action. See docs/social.md.
 */
export function createOutbox(deps: {
  repo: OutboxRepository;
  transaction: Transaction;
  /** The local user an actor stands for; null for a remote actor (src/actors/repository.ts). */
  localUserOf: (actorId: number) => Promise<number | null>;
  now?: () => number;
}) {
  const { repo, transaction, localUserOf } = deps;
  const now = deps.now ?? Date.now;
  const handlers = new Map<ActivityType, DeliveryHandler[]>();
  let scheduled = false;
  let running = false;
  /** A run was asked for while one was under way: another follows it. */
  let pending = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let waiters: (() => void)[] = [];
  /** Hand-offs that ended and whose outcome is being recorded: idle() waits for them too. */
  let settling = 0;
  /** Background work under way (runs, hand-offs' outcomes): stop() waits for it. */
  const tasks = new Set<Promise<void>>();

  function background(work: () => Promise<void>): void {
    const task: Promise<void> = work()
      .catch((error: unknown) => logger.error('The outbox failed: {error}', { error }))
      .finally(() => tasks.delete(task));
    tasks.add(task);
  }

  /** The row's activity is delivered: the row goes, and a transient activity with it. */
  async function finish(outboxId: number, activity: ActivityRow): Promise<void> {
    if (isTransient(activity.type)) await repo.forget(activity.id);
    else await repo.delivered(outboxId);
  }

  async function failed(
    outboxId: number,
    attempts: number,
    activity: ActivityRow,
    error: unknown,
  ): Promise<void> {
    const delay = retryDelay(attempts);
    await repo.retryLater(outboxId, now() + delay, String(error));
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
      settling++;
      background(async () => {
        try {
          if (error === undefined) await transaction(() => finish(outboxId, activity));
          else await failed(outboxId, attempts, activity, error);
        } catch (failure) {
          logger.error('Could not record the hand-off of activity {id}: {failure}', {
            id: activity.id,
            failure,
          });
        } finally {
          settling--;
        }
        schedule();
      });
    },
  });

  /** One row's local deliveries, and its hand-off's jobs, in one transaction. */
  function deliverRow(outboxId: number, activity: ActivityRow, progress: string | null) {
    return transaction(async () => {
      const from = parseProgress(progress);
      if (from !== 'federating') {
        const list = handlers.get(activity.type) ?? [];
        for (let h = from?.handler ?? 0; h < list.length; h++) {
          const resume = await list[h]!(activity, h === from?.handler ? from.resume : undefined);
          if (typeof resume === 'string') {
            await repo.saveProgress(outboxId, JSON.stringify({ handler: h, resume }));
            return 'unfinished' as const;
          }
        }
      }
      const jobs = await handoffs.jobsOf(activity);
      if (jobs.length === 0) {
        await finish(outboxId, activity);
        handoffs.release(outboxId);
        return 'done' as const;
      }
      // Local delivery is done; the row stays, leased, until the hand-off resolves.
      await repo.lease(outboxId, FEDERATING, now() + HANDOFF_LEASE_MS);
      return jobs;
    });
  }

  async function deliver(): Promise<void> {
    scheduled = false;
    if (stopped) return; // stopped (the database may be closed) after this run was scheduled
    if (running) {
      pending = true; // one runs already: this one follows it
      return;
    }
    running = true;
    pending = false;
    let more: boolean;
    try {
      // Read in a transaction: it begins once the one that recorded the row has committed
      // (transactions run one at a time), so the batch sees the row on every engine.
      const batch = await transaction(() => repo.due(now(), BATCH));
      const deadline = performance.now() + RUN_BUDGET_MS;
      more = batch.length === BATCH;
      for (const [index, { outboxId, attempts, activity, progress }] of batch.entries()) {
        if (stopped) break; // what is left waits for the next start
        if (performance.now() > deadline) {
          more ||= index < batch.length;
          break;
        }
        if (handoffs.inFlight(outboxId)) {
          await repo.deferTo(outboxId, now() + HANDOFF_LEASE_MS); // under way: renew the lease
          continue;
        }
        try {
          const step = await deliverRow(outboxId, activity, progress);
          if (step === 'unfinished') more = true;
          else if (step !== 'done') handoffs.start(outboxId, attempts, activity, step);
        } catch (error) {
          await failed(outboxId, attempts, activity, error);
        }
      }
    } finally {
      running = false;
    }
    // More is due, or was recorded meanwhile: carry on after letting requests in.
    if (more || pending) schedule();
    if (!scheduled) {
      await planRetry();
      await settleWaiters();
    }
  }

  /** Nothing due before `due`, and no hand-off under way or being recorded. */
  const quiet = (due: number | null) =>
    handoffs.count() === 0 && settling === 0 && (due === null || due > now());

  async function settleWaiters(): Promise<void> {
    const due = await repo.nextDueAt();
    if (quiet(due)) {
      const settled = waiters;
      waiters = [];
      for (const resolve of settled) resolve();
    }
  }

  // Bound where the outbox is made (at start-up), so a run never joins the transaction of the
  // write that scheduled it.
  const run = AsyncResource.bind(() => background(deliver));

  function schedule(): void {
    if (stopped) return;
    if (running) {
      pending = true;
      return;
    }
    if (scheduled) return;
    scheduled = true;
    setImmediate(run);
  }

  /** Wakes up when the earliest retry falls due. */
  async function planRetry(): Promise<void> {
    const due = await repo.nextDueAt();
    clearTimeout(timer);
    if (due === null || stopped) return;
    timer = setTimeout(schedule, Math.max(0, due - now()));
    timer.unref();
  }

  return {
    /**
     * Records an activity and its delivery. Call it inside the write's `transaction()`; the
     * delivery starts after the transaction has ended (and the request's answer is ready). An activity of a kind only local users
     * emit (activities.ts) with a remote actor is a mistake of its writer: it throws, and the
     * write rolls back.
     */
    async record(activity: NewActivity): Promise<number> {
      if (!remoteMayEmit(activity.type) && (await localUserOf(activity.actorId)) === null) {
        throw new Error(
          `A ${activity.type} activity is a local user's, not actor ${activity.actorId}'s`,
        );
      }
      const id = await repo.record(activity);
      // Recorded while a request is answered: delivered once the answer is ready (answering.ts).
      const answer = answerUnderWay();
      if (answer) void answer.then(schedule);
      else schedule();
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

    /**
     * Stops delivering (before the database closes); undelivered rows wait for the next start.
     * Nothing new starts at once; resolves when the work under way has ended (await it before
     * closing the database, but not from a delivery handler, which is part of that work).
     */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await Promise.all(tasks);
    },

    /**
     * Resolves once nothing is due any more and no hand-off is under way (tests and the
     * benchmark wait on it).
     */
    async idle(): Promise<void> {
      if (stopped) return;
      if (!running && !scheduled && quiet(await repo.nextDueAt())) return;
      const settled = new Promise<void>((resolve) => waiters.push(resolve));
      if (!scheduled && !running) schedule();
      return settled;
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
