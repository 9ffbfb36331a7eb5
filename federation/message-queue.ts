import type {
  MessageQueue,
  MessageQueueDepth,
  MessageQueueEnqueueOptions,
  MessageQueueListenOptions,
} from '@fedify/fedify';
import { getLogger } from '@logtape/logtape';
import type { Database } from '../src/db/database.ts';
import {
  prepareQueueStatements,
  type ClaimParams,
  type InsertRow,
  type QueueRow,
  type QueueStatements,
} from './message-queue-statements.ts';
import { durationToMs } from './temporal.ts';

const logger = getLogger(['vault', 'federation', 'queue']);

export interface SqliteMessageQueueOptions {
  /**
   * The channel of federation_queue this queue writes and reads: queues on different channels
   * share the table and nothing else (their own listeners, ordering keys and depth).
   * 'deliveries' by default.
   */
  channel?: string;
  /**
   * The server a message goes to (a host, with its port if any), or null: at most perHostLimit
   * messages of one host are handled at a time, across processes. Computed when enqueued.
   */
  hostOf?: (message: unknown) => string | null;
  /** Messages of one host (hostOf) handled at the same time. No limit but concurrency by default. */
  perHostLimit?: number;
  /**
   * Runs each handler (a scope around it, such as the delivery HTTP bounds); given the message,
   * it may also settle it without running the handler.
   */
  runHandler?: (handle: () => Promise<void>, message: unknown) => Promise<void>;
  /** How often a listener looks for due messages when nothing wakes it. 1 s by default. */
  pollIntervalMs?: number;
  /**
   * How long a taken message stays reserved for its handler. The lease is renewed while the
   * handler runs, so it only matters after a crash: then the message is taken again once the
   * lease has run out. 2 minutes by default.
   */
  leaseMs?: number;
  /** Handlers one listener runs at the same time. 4 by default. */
  concurrency?: number;
  /** Attempts (handler runs) before a message that keeps failing is dropped. 8 by default. */
  maxAttempts?: number;
  /** Delay before the first retry of a failed handler; doubles each time. 1 s by default. */
  retryBaseMs?: number;
  /** Longest delay between retries. 1 hour by default. */
  retryMaxMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

type Handler = (message: unknown) => Promise<void> | void;

/**
 * Fedify's message queue in the app's database, table federation_queue, one channel of it.
 *
 * A listener takes a due message by setting its lease (locked_until) and deletes it only after
 * the handler succeeds: a crash or a failing handler never loses a message (Fedify's own SQLite
 * queue deletes first). A failed handler releases the message for a retry with exponential
 * backoff, and after maxAttempts it is dropped with an error in the log. Fedify handles delivery
 * failures itself (nativeRetrial is false) by enqueueing a delayed copy, so this retry only
 * covers errors that escape Fedify.
 *
 * Messages with the same orderingKey are handled one at a time, in the order they were
 * enqueued: a message is only taken when no earlier message with its key is still in the table
 * (waiting, delayed, or being handled). Several listeners, in this process or another one on the
 * same database, can share the queue; the lease makes sure each message goes to one of them
 * (message-queue-statements.ts, claim). A local enqueue wakes this process's listeners at once;
 * others notice within pollIntervalMs.
 *
 * With hostOf, a due message whose host already has perHostLimit messages leased is passed
 * over, not waited for: the next message of another host is taken instead, so one slow server
 * holds at most perHostLimit of the handlers.
 *
 * The value of locked_until doubles as the lease token: renewing or releasing a lease only
 * succeeds while it still holds the value this listener set, so a listener whose lease ran out
 * (and whose message was taken again) cannot disturb the new holder.
 */
export class SqliteMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;

  readonly #db: Database;
  readonly #channel: string;
  readonly #hostOf: ((message: unknown) => string | null) | undefined;
  readonly #perHostLimit: number;
  readonly #runHandler: (handle: () => Promise<void>, message: unknown) => Promise<void>;
  readonly #now: () => number;
  readonly #pollIntervalMs: number;
  readonly #leaseMs: number;
  readonly #concurrency: number;
  readonly #maxAttempts: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #wakers = new Set<() => void>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #heartbeats = new Set<NodeJS.Timeout>();
  #closed = false;

  readonly #statements: QueueStatements;

  constructor(db: Database, options: SqliteMessageQueueOptions = {}) {
    this.#db = db;
    this.#channel = options.channel ?? 'deliveries';
    this.#hostOf = options.hostOf;
    this.#runHandler = options.runHandler ?? ((handle) => handle());
    this.#now = options.now ?? Date.now;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#leaseMs = options.leaseMs ?? 2 * 60_000;
    this.#concurrency = Math.max(1, options.concurrency ?? 4);
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 8);
    this.#retryBaseMs = options.retryBaseMs ?? 1_000;
    this.#retryMaxMs = options.retryMaxMs ?? 60 * 60_000;
    this.#perHostLimit = Math.max(1, options.perHostLimit ?? this.#concurrency);

    this.#statements = prepareQueueStatements(db);
  }

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.#insert([message], options);
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions) {
    await this.#insert(messages, options);
  }

  /** The core of enqueue/enqueueMany: all messages in one transaction. */
  async #insert(messages: readonly unknown[], options?: MessageQueueEnqueueOptions) {
    if (messages.length === 0) return;
    const now = this.#now();
    const notBefore = now + (options?.delay ? durationToMs(options.delay) : 0);
    const orderingKey = options?.orderingKey ?? null;
    const rows = messages.map((message): InsertRow => {
      const json = JSON.stringify(message);
      if (json === undefined) throw new TypeError('A queue message must be JSON-serializable.');
      const host = this.#hostOf?.(message) ?? null;
      return { channel: this.#channel, message: json, host, orderingKey, notBefore, now };
    });
    await this.#db.transaction(async () => {
      for (const row of rows) await this.#statements.insert.run(row);
    });
    this.#wakeAll();
  }

  /**
   * Takes and handles messages until the signal is aborted. Resolves right after the abort
   * (handlers still running keep their lease until they finish; see drain). Never rejects.
   */
  async listen(handler: Handler, options: MessageQueueListenOptions = {}): Promise<void> {
    const { signal } = options;
    let active = 0;
    let wake: () => void = () => {};
    // Set by a wake that came while the listener was looking (awaiting the database), not
    // waiting: it looks again at once instead of sleeping through it.
    let woken = false;
    const waker = () => {
      woken = true;
      wake();
    };
    this.#wakers.add(waker);
    logger.debug('Queue listener started');
    try {
      while (!signal?.aborted && !this.#closed) {
        let waitMs = this.#pollIntervalMs;
        try {
          while (active < this.#concurrency && !signal?.aborted && !this.#closed) {
            const row = await this.#take();
            // Closed while it was being taken: its lease runs out and it is taken again later.
            if (row === undefined || this.#closed) break;
            active += 1;
            this.#track(
              this.#handle(row, handler).finally(() => {
                active -= 1;
                waker();
              }),
            );
          }
          waitMs = await this.#msUntilNextDue(waitMs);
        } catch (error) {
          if (this.#closed) break;
          logger.error('The federation queue could not read its table: {error}', { error });
        }
        // Aborted while it looked: the abort event has passed, so it is not waited for.
        if (signal?.aborted) break;
        if (woken) {
          woken = false;
          continue;
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            wake = () => {};
            resolve();
          };
          const timer = setTimeout(done, waitMs);
          wake = done;
          signal?.addEventListener('abort', done, { once: true });
        });
        woken = false; // it ended the wait (or came since): the next look sees its message
      }
    } finally {
      this.#wakers.delete(waker);
      logger.debug('Queue listener stopped');
    }
  }

  /**
   * Waits until the handlers that are running now have finished, at most timeoutMs.
   * Returns true if they all finished in time.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const settled = Promise.allSettled([...this.#inFlight]).then(() => true as const);
    try {
      return await Promise.race([settled, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Handlers running right now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Stops all work: listeners return, and handlers that are still running no longer touch the
   * database when they end (their messages keep a lease that runs out, so they are taken again
   * after a restart). Call before the database closes.
   */
  close(): void {
    this.#closed = true;
    for (const heartbeat of this.#heartbeats) clearInterval(heartbeat);
    this.#heartbeats.clear();
    this.#wakeAll();
  }

  async getDepth(): Promise<MessageQueueDepth> {
    const now = this.#now();
    const row = (await this.#statements.depth.get({ channel: this.#channel, now }))!;
    return { queued: row.queued, ready: row.ready ?? 0, delayed: row.delayed ?? 0 };
  }

  async #take(): Promise<QueueRow | undefined> {
    for (;;) {
      const now = this.#now();
      const params: ClaimParams = {
        channel: this.#channel,
        lease: now + this.#leaseMs,
        now,
        perHost: this.#perHostLimit,
      };
      const row = await this.#statements.claim.get(params);
      if (row === undefined) return undefined;
      if (row.attempts <= this.#maxAttempts) return row;
      // Only reachable when a lease ran out (the process died or hung while handling it).
      await this.#statements.drop.run(row.id);
      logger.error(
        'Dropped federation queue message {id} after {attempts} attempts that never finished',
        { id: row.id, attempts: row.attempts - 1, message: row.message },
      );
    }
  }

  async #handle(row: QueueRow, handler: Handler): Promise<void> {
    const renewEvery = Math.max(10, Math.floor(this.#leaseMs / 3));
    // Renewals run one after another, and the outcome below waits for the last one, so that
    // it names the lease token (row.locked_until) the row holds.
    let renewals = Promise.resolve();
    const heartbeat = setInterval(() => {
      renewals = renewals.then(() => this.#renewLease(row));
    }, renewEvery);
    heartbeat.unref();
    this.#heartbeats.add(heartbeat);
    let failure: { error: unknown } | undefined;
    try {
      const message: unknown = JSON.parse(row.message);
      await this.#runHandler(async () => handler(message), message);
    } catch (error) {
      failure = { error };
    } finally {
      clearInterval(heartbeat);
      this.#heartbeats.delete(heartbeat);
    }
    await renewals;
    if (this.#closed) return;
    try {
      if (failure === undefined) {
        await this.#statements.ack.run(row.id);
      } else if (row.attempts >= this.#maxAttempts) {
        await this.#statements.drop.run(row.id);
        logger.error(
          'Dropped federation queue message {id} after {attempts} failed attempts: {error}',
          { id: row.id, attempts: row.attempts, error: failure.error, message: row.message },
        );
      } else {
        const backoff = Math.min(this.#retryBaseMs * 2 ** (row.attempts - 1), this.#retryMaxMs);
        await this.#statements.release.run(this.#now() + backoff, row.id, row.locked_until);
        logger.warn(
          'Federation queue message {id} failed (attempt {attempts}); retrying in {backoff} ms: {error}',
          { id: row.id, attempts: row.attempts, backoff, error: failure.error },
        );
      }
    } catch (error) {
      logger.error('Could not record the outcome of federation queue message {id}: {error}', {
        id: row.id,
        error,
      });
    }
  }

  /** Never rejects: a failure is logged. */
  async #renewLease(row: QueueRow): Promise<void> {
    if (this.#closed) return;
    try {
      const lockedUntil = this.#now() + this.#leaseMs;
      const renewed = await this.#statements.renew.run(lockedUntil, row.id, row.locked_until);
      if (renewed.changes === 1) {
        row.locked_until = lockedUntil;
      }
    } catch (error) {
      logger.warn('Could not renew the lease of federation queue message {id}: {error}', {
        id: row.id,
        error,
      });
    }
  }

  async #msUntilNextDue(pollMs: number): Promise<number> {
    const now = this.#now();
    const due = (await this.#statements.nextDue.get({ channel: this.#channel, now }))?.due;
    if (due === null || due === undefined) return pollMs;
    return Math.max(1, Math.min(pollMs, due - now));
  }

  #track(task: Promise<void>): void {
    this.#inFlight.add(task);
    void task.finally(() => this.#inFlight.delete(task));
  }

  #wakeAll(): void {
    for (const wake of this.#wakers) wake();
  }
}
