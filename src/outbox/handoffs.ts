import type { ActivityRow, ActivityType } from '../db/schema/index.ts';
import { orderingKeyOf } from './activities.ts';

/**
 * A kind of activity that leaves the vault: the one way the outbox hands an activity to
 * Fedify. Register it with `outbox.federate(...)` (outbox.ts); see docs/social.md, "The
 * outbox", for a worked example.
 *
 * For each outbox row of one of `types` whose actor is a local user (`sender`: the only activities
 * that leave the vault; a remote actor's, recorded for local recipients, never do), once the
 * local handlers are done:
 * - `job` runs in the delivery transaction, awaiting nothing but the database: it decides
 *   whether and what to send (undefined: nothing, e.g. the activity is not of this kind, or
 *   nobody remote gets it) and returns plain data. It may write (what it writes commits with
 *   the hand-off's lease). It must be idempotent: it runs again for the same activity after a
 *   failed `send` or a crash.
 * - `send` runs after that transaction committed: it loads Fedify if need be (through the
 *   federation gateway, with `await import()` of the module that builds the activity, never a
 *   static import: Fedify is not loaded at start) and resolves once the activity is in
 *   Fedify's queue. The activity's id must follow from the job (the entry, the follow...),
 *   so that sending the same job again is the same activity to its receivers.
 *
 * The outbox row is removed once every `send` for it resolved. A `send` that rejects, or takes
 * longer than HANDOFF_TIMEOUT_MS, is retried with the outbox's growing delay, like any failed
 * delivery; a crash before it resolved sends the job again after the restart (once the row's
 * lease, HANDOFF_LEASE_MS, ran out). Delivery is at least once, with the same activity id every time.
 *
 * Jobs of one handler whose activities have the same ordering key (their kind's, activities.ts:
 * the entry, the follow, the comment they are about) are handed over one at a time, in the order
 * their rows were handled (oldest first), so an entry's Create is in Fedify's queue before its
 * Update. A job whose predecessor failed fails too, and both are retried in their order; so
 * does a job of a later row taken up while that predecessor waits for its retry.
 */
export interface FederatingHandler<Job> {
  /** What it sends ("entry", "follow"): its ordering keys are its own. */
  readonly name: string;
  /** The activity types it looks at; several handlers may look at one type. */
  readonly types: readonly ActivityType[];
  job(activity: ActivityRow, sender: Sender): Promise<Job | undefined>;
  send(job: Job): Promise<void>;
}

/** The local user whose activity is handed off. */
export interface Sender {
  userId: number;
}

/** How long a hand-off may take before it counts as failed (and is retried). */
export const HANDOFF_TIMEOUT_MS = 30_000;

/**
 * How long the row of a hand-off under way is not due: renewed while it runs, so after a crash
 * the row is taken up again this soon.
 */
export const HANDOFF_LEASE_MS = 5_000;

/** Longer than the outbox's longest retry delay (an hour): see `blocked` in createHandoffs. */
const BLOCK_EXPIRY_MS = 2 * 60 * 60_000;

/** One job of one row, with the handler that sends it and its row's ordering key. */
export interface Handoff {
  handler: FederatingHandler<unknown>;
  job: unknown;
  key: string | undefined;
}

type Settled = (outboxId: number, attempts: number, activity: ActivityRow, error: unknown) => void;

/**
 * The hand-offs under way: the outbox's only in-memory state about them (which rows wait, and
 * the chains that keep jobs with one ordering key in order). The durable state is the outbox
 * row, leased while its hand-off runs.
 */
export function createHandoffs(deps: {
  settled: Settled;
  /** The local user an actor stands for; null for a remote actor. */
  localUserOf: (actorId: number) => Promise<number | null>;
}) {
  const byType = new Map<ActivityType, FederatingHandler<unknown>[]>();
  /** Rows whose hand-off runs, each with the token of its attempt. */
  const running = new Map<number, symbol>();
  const chains = new Map<string, Promise<void>>();
  /**
   * Ordering keys whose hand-off failed, with the earliest row that failed and when: until that
   * row is handed over again (or goes), a later row with the key fails without sending, so that
   * it cannot overtake it. A block older than BLOCK_EXPIRY_MS is ignored: its row went some
   * other way (deleted with its account), since it would have been tried again by then.
   */
  const blocked = new Map<string, { row: number; at: number }>();

  function sendInOrder(outboxId: number, { handler, job, key }: Handoff): Promise<void> {
    if (key === undefined) return handler.send(job);
    const chainKey = `${handler.name}\n${key}`;
    const waitingFor = blocked.get(chainKey);
    if (waitingFor && Date.now() - waitingFor.at > BLOCK_EXPIRY_MS) blocked.delete(chainKey);
    else if (waitingFor && waitingFor.row < outboxId) {
      return Promise.reject(new Error(`waits for the hand-off of outbox row ${waitingFor.row}`));
    }
    const previous = chains.get(chainKey) ?? Promise.resolve();
    const sent = previous.then(() => handler.send(job));
    chains.set(chainKey, sent);
    const forget = () => {
      if (chains.get(chainKey) === sent) chains.delete(chainKey);
    };
    const block = () => {
      const earliest = blocked.get(chainKey);
      if (!earliest || outboxId < earliest.row) {
        blocked.set(chainKey, { row: outboxId, at: Date.now() });
      }
    };
    sent.then(forget, () => {
      forget();
      block();
    });
    return sent;
  }

  /** Lifts the blocks of `outboxId`: it is handed over again, or it went. */
  function unblock(outboxId: number): void {
    for (const [chainKey, { row }] of blocked) if (row === outboxId) blocked.delete(chainKey);
  }

  return {
    register<Job>(handler: FederatingHandler<Job>): void {
      for (const type of handler.types) {
        byType.set(type, [...(byType.get(type) ?? []), handler as FederatingHandler<unknown>]);
      }
    },

    /**
     * The jobs of an activity (inside the delivery transaction): none for an activity whose
     * actor is not a local user, whatever its handlers would say.
     */
    async jobsOf(activity: ActivityRow): Promise<Handoff[]> {
      const handlers = byType.get(activity.type);
      if (handlers === undefined) return [];
      const userId = await deps.localUserOf(activity.actorId);
      if (userId === null) return [];
      const jobs: Handoff[] = [];
      for (const handler of handlers) {
        const job = await handler.job(activity, { userId });
        if (job !== undefined) jobs.push({ handler, job, key: orderingKeyOf(activity) });
      }
      return jobs;
    },

    inFlight: (outboxId: number) => running.has(outboxId),
    /** The row went without a hand-off (nothing to send any more): later rows need not wait. */
    release: unblock,
    count: () => running.size,

    /** Sends the jobs of a row (after its transaction committed) and reports the outcome. */
    start(outboxId: number, attempts: number, activity: ActivityRow, jobs: Handoff[]): void {
      const token = Symbol(String(outboxId));
      running.set(outboxId, token);
      unblock(outboxId);
      let timeout: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timeout = setTimeout(
          () => reject(new Error(`hand-off still running after ${HANDOFF_TIMEOUT_MS} ms`)),
          HANDOFF_TIMEOUT_MS,
        );
        timeout.unref();
      });
      // In a later microtask (rows keep their order): what throws at once rejects like the rest.
      const all = Promise.resolve().then(() =>
        Promise.all(jobs.map((handoff) => sendInOrder(outboxId, handoff))),
      );
      const report = (error: unknown) => {
        clearTimeout(timeout);
        if (running.get(outboxId) !== token) return; // a timed-out attempt ending late
        running.delete(outboxId);
        deps.settled(outboxId, attempts, activity, error);
      };
      Promise.race([all, timedOut]).then(
        () => report(undefined),
        (error: unknown) => report(error ?? new Error('hand-off failed')),
      );
    },
  };
}
