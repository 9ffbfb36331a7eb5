/**
 * The offline queue: writes made while the vault could not be reached, kept on the device
 * (a QueueStore) and sent in order once it can be. Each change carries the Idempotency-Key
 * chosen when it was first sent, so one the vault received but whose answer was lost is
 * answered again, not applied again (docs/architecture.md, "Idempotency keys").
 *
 * A sync sends the waiting changes one at a time, oldest first, and ends:
 *  - at the first one that gets no answer, a 5xx, a 408 or 429, a 401 (the session is gone), or
 *    a 409 saying the same key is still being processed: it stays first, for the next sync;
 *  - else when none is left. One the vault refuses (any other 4xx) is kept as refused, with
 *    the vault's message as its reason, and the next one is sent: it is shown until discarded.
 *
 * No DOM or React imports here (Web Locks are used when the browser has them): it is unit-tested
 * in Node.
 */
import { ApiError, NO_ANSWER } from '../api/client.ts';
import { call } from '../api/call.ts';
import type { NewChange, QueueStore, QueuedChange } from './queue-store.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** How the vault answers a request whose key it is still working on (src/idempotency). */
const STILL_PROCESSING = /still being processed/i;

export interface QueueSnapshot {
  /** Not sent yet, in order. */
  waiting: readonly QueuedChange[];
  /** Refused by the vault, kept until discarded. */
  refused: readonly QueuedChange[];
  /**
   * What to show where it belongs, marked as waiting: the waiting changes, and those this sync
   * sent whose lists are still being fetched again (see `onSynced`). A sent change leaves only
   * then, so its card never shows the vault's older copy in between.
   */
  shown: readonly QueuedChange[];
  syncing: boolean;
}

/** Sends one change and resolves to the vault's answer. */
export type Sender = (change: QueuedChange) => Promise<unknown>;

/** What became of one attempt: sent, kept for later, or refused. */
export type Attempt = 'sent' | 'later' | 'refused';

/** What to do after a change failed to send (see the header). */
export function attemptAfter(error: unknown): Exclude<Attempt, 'sent'> {
  if (!(error instanceof ApiError)) return 'later';
  const { status } = error;
  if (status === NO_ANSWER || status === 401 || status === 408 || status === 429) return 'later';
  if (status === 409 && STILL_PROCESSING.test(error.message)) return 'later';
  if (status >= 400 && status < 500) return 'refused';
  return 'later';
}

/** The form of a queued change, rebuilt in its order (files with their names). */
export function formOf(change: QueuedChange): FormData | undefined {
  if (!change.form) return undefined;
  const form = new FormData();
  for (const field of change.form) {
    if ('file' in field) form.append(field.name, field.file, field.filename);
    else form.append(field.name, field.value);
  }
  return form;
}

/** Sends a change through the route table with its Idempotency-Key. */
export const sendChange: Sender = (change) => {
  const input = {
    params: change.params,
    json: change.json,
    form: formOf(change),
    headers: { [IDEMPOTENCY_HEADER]: change.idempotencyKey },
  };
  return (call as (route: string, input: unknown) => Promise<unknown>)(change.route, input);
};

/** The part of the browser's LockManager used here. */
interface Locks {
  request<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/**
 * The lock a sync holds. Like the database (queue-idb.ts), it keeps the queue's former name,
 * "outbox", so that a tab still running the client from before the rename and a tab running this
 * one never send the same changes at once.
 */
const SYNC_LOCK = 'vault-outbox-sync';

/** Runs `work` alone among this origin's tabs, where the browser offers Web Locks. */
function alone<T>(work: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: Locks } | undefined)?.locks;
  return locks ? locks.request(SYNC_LOCK, work) : work();
}

const EMPTY: QueueSnapshot = { waiting: [], refused: [], shown: [], syncing: false };

export class OfflineQueue {
  private snap: QueueSnapshot = EMPTY;
  private readonly listeners = new Set<() => void>();
  private readonly syncedListeners = new Set<(sent: QueuedChange[]) => unknown>();
  /** Sent by the running sync, still shown until the lists are fetched again. */
  private settling: readonly QueuedChange[] = [];
  private running: Promise<void> | null = null;
  /** Counts reads of the store; only the newest may set the snapshot (see `refresh`). */
  private reads = 0;
  /** Resolves once the kept changes were read (rejects if the store cannot be opened). */
  readonly ready: Promise<void>;

  private readonly store: QueueStore;
  private readonly send: Sender;

  constructor(store: QueueStore, send: Sender = sendChange) {
    this.store = store;
    this.send = send;
    this.ready = this.reload();
    this.ready.catch(() => undefined);
  }

  /** The current state; a new object whenever it changes (for useSyncExternalStore). */
  snapshot = (): QueueSnapshot => this.snap;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Called after a sync that sent at least one change, with those it sent. The sent changes stay
   * in `shown` until every listener's promise settles (a listener fetches the lists again).
   */
  onSynced(listener: (sent: QueuedChange[]) => unknown): () => void {
    this.syncedListeners.add(listener);
    return () => this.syncedListeners.delete(listener);
  }

  private set(changes: QueuedChange[], syncing = this.snap.syncing): void {
    const waiting = changes.filter((change) => !change.refused);
    const shown = [
      ...this.settling.filter((sent) => !waiting.some((change) => change.seq === sent.seq)),
      ...waiting,
    ];
    this.snap = {
      waiting,
      refused: changes.filter((change) => change.refused),
      shown: shown.sort((a, b) => a.seq - b.seq),
      syncing,
    };
    for (const listener of this.listeners) listener();
  }

  /**
   * Reads the store and shows what it holds, unless a newer read started meanwhile: reads may
   * resolve out of order, and an older one (say, a sync's, begun before a discard) must not put
   * back what a newer one no longer holds. Answers what was read, whether shown or not.
   */
  private async refresh(syncing?: boolean): Promise<QueuedChange[]> {
    const ticket = ++this.reads;
    const changes = await this.store.list();
    if (ticket === this.reads) this.set(changes, syncing);
    return changes;
  }

  private async reload(): Promise<void> {
    await this.refresh();
  }

  /** Keeps a change at the back of the queue. */
  async enqueue(change: NewChange): Promise<QueuedChange> {
    await this.ready;
    const kept = await this.store.add(change);
    await this.reload();
    return kept;
  }

  /** Forgets a change (a refused one the user gave up on). */
  async discard(seq: number): Promise<void> {
    await this.ready;
    await this.store.remove(seq);
    await this.reload();
  }

  /** Whether anything is waiting to be sent (a new change then goes behind it). */
  async hasWaiting(): Promise<boolean> {
    await this.ready;
    return this.snap.waiting.length > 0;
  }

  /** Sends what is waiting (see the header); a sync already running is joined, not doubled. */
  sync(): Promise<void> {
    // A store that fails (IndexedDB gone) leaves the changes where they are, for the next sync.
    this.running ??= this.run()
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async run(): Promise<void> {
    await this.ready;
    const sent: QueuedChange[] = [];
    this.set(
      [...this.snap.waiting, ...this.snap.refused].sort((a, b) => a.seq - b.seq),
      true,
    );
    try {
      await alone(async () => {
        for (;;) {
          // Read again each time: another tab may have sent or discarded some meanwhile.
          const changes = await this.refresh(true);
          const next = changes.find((change) => !change.refused);
          if (!next) return;
          const attempt = await this.attempt(next);
          if (attempt === 'later') return;
          if (attempt === 'sent') {
            sent.push(next);
            this.settling = sent;
          }
        }
      });
    } finally {
      await this.refresh(false);
      // A newer read (an enqueue, a discard) may have shown the changes meanwhile: the sync is over.
      if (this.snap.syncing) this.set([...this.snap.waiting, ...this.snap.refused], false);
    }
    if (sent.length === 0) return;
    try {
      await Promise.allSettled([...this.syncedListeners].map(async (listener) => listener(sent)));
    } finally {
      this.settling = [];
      this.set([...this.snap.waiting, ...this.snap.refused]);
    }
  }

  private async attempt(change: QueuedChange): Promise<Attempt> {
    try {
      await this.send(change);
    } catch (error) {
      if (error instanceof ApiError && error.status >= 200 && error.status < 300) {
        // Applied, though its answer could not be read: it is done all the same.
      } else {
        const after = attemptAfter(error);
        if (after === 'refused') {
          const { status, message } = error as ApiError;
          await this.store.put({ ...change, refused: { status, message, at: Date.now() } });
        }
        return after;
      }
    }
    await this.store.remove(change.seq);
    return 'sent';
  }
}
