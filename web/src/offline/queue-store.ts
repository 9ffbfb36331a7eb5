/**
 * What the offline queue keeps on the device, and the small interface of the store that keeps
 * it: IndexedDB in the browser (queue-idb.ts), a plain array in the unit tests. The queue's
 * rules (queue.ts) only see this interface.
 *
 * No DOM or React imports here.
 */
import type { RouteKey } from '../../../contract/routes/index.ts';

/** A route of the table that changes something: every key but a GET. */
export type WriteRouteKey = Exclude<RouteKey, `GET ${string}`>;

/** One field of a queued form, in the form's order: text, or a file (a photo) with its name. */
export type QueuedField =
  { name: string; value: string } | { name: string; file: Blob; filename: string };

/** Why the vault refused a change when it was sent: its status and `message`. */
export interface Refusal {
  status: number;
  message: string;
  at: number;
}

/** One call of the route table kept on the device until it is sent. */
export interface QueuedChange {
  /** Its place in the queue, given by the store, increasing. */
  seq: number;
  /** The route, e.g. 'POST /beverages'. */
  route: WriteRouteKey;
  params?: Record<string, string | number>;
  /** The JSON body, or the form's fields (a route takes one or the other). */
  json?: unknown;
  form?: QueuedField[];
  /** Sent as the Idempotency-Key header each time the change is sent, so it applies once. */
  idempotencyKey: string;
  /** When it was queued (ms since the epoch). */
  queuedAt: number;
  /** What the user sees: 'Log Ardbeg Uigeadail'. */
  label: string;
  /** Set once the vault refused it: it is no longer sent, only shown until discarded. */
  refused?: Refusal;
}

export type NewChange = Omit<QueuedChange, 'seq'>;

export interface QueueStore {
  /** Every change kept, in queue order. */
  list(): Promise<QueuedChange[]>;
  /** Keeps a new change at the back of the queue. */
  add(change: NewChange): Promise<QueuedChange>;
  /** Replaces a kept change (to mark it refused). */
  put(change: QueuedChange): Promise<void>;
  remove(seq: number): Promise<void>;
}

/** A store in memory: for tests, and where IndexedDB cannot be opened. */
export function memoryStore(): QueueStore {
  const changes = new Map<number, QueuedChange>();
  let last = 0;
  return {
    list: async () => [...changes.values()].sort((a, b) => a.seq - b.seq),
    add: async (change) => {
      last += 1;
      const kept = { ...change, seq: last };
      changes.set(last, kept);
      return kept;
    },
    put: async (change) => {
      changes.set(change.seq, change);
    },
    remove: async (seq) => {
      changes.delete(seq);
    },
  };
}
