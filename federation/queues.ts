import type { MessageQueueDepth } from '@fedify/fedify';
import type Database from 'better-sqlite3';
import { withDeliveryBounds } from './http-bounds.ts';
import { SqliteMessageQueue, type SqliteMessageQueueOptions } from './message-queue.ts';

/**
 * Workers of each of Fedify's queues (channels of federation_queue), in every process. Incoming
 * activities have workers of their own, so they never wait behind deliveries; one server gets
 * at most `perHost` of the delivery workers, so a server that never answers holds two of eight
 * and the rest keep delivering elsewhere.
 */
export const QUEUE_WORKERS = {
  /** Incoming activities (the inbox listeners). */
  inbox: 4,
  /** Deliveries to other servers' inboxes. */
  outbox: 8,
  /** Deliveries of one server at the same time (its inbox host, port included). */
  perHost: 2,
  /** Turning one activity for many recipients into one delivery per inbox (no network). */
  fanout: 2,
} as const;

/** What the three queues share; the channel, workers and per-host limit are set here. */
export type SharedQueueOptions = Omit<
  SqliteMessageQueueOptions,
  'channel' | 'concurrency' | 'hostOf' | 'perHostLimit' | 'runHandler'
>;

/** Fedify's three queues, one channel each, and what stop() and tests need of all of them. */
export interface FederationQueues {
  inbox: SqliteMessageQueue;
  outbox: SqliteMessageQueue;
  fanout: SqliteMessageQueue;
  /** Handlers running now, in all three. */
  readonly inFlight: number;
  /** Waiting messages of all three (without those in flight). */
  getDepth(): Promise<MessageQueueDepth>;
  /** Waits at most timeoutMs for the running handlers of all three; true if they finished. */
  drain(timeoutMs: number): Promise<boolean>;
  close(): void;
}

/** The host of the inbox a Fedify outbox message is bound for; null for anything else. */
export function deliveryHost(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const { type, inbox } = message as { type?: unknown; inbox?: unknown };
  if (type !== 'outbox' || typeof inbox !== 'string') return null;
  return URL.parse(inbox)?.host ?? null;
}

export function createFederationQueues(
  sqlite: Database.Database,
  options: SharedQueueOptions = {},
): FederationQueues {
  const inbox = new SqliteMessageQueue(sqlite, {
    ...options,
    channel: 'inbox',
    concurrency: QUEUE_WORKERS.inbox,
  });
  const outbox = new SqliteMessageQueue(sqlite, {
    ...options,
    channel: 'outbox',
    concurrency: QUEUE_WORKERS.outbox,
    hostOf: deliveryHost,
    perHostLimit: QUEUE_WORKERS.perHost,
    runHandler: (handle) => withDeliveryBounds(handle),
  });
  const fanout = new SqliteMessageQueue(sqlite, {
    ...options,
    channel: 'fanout',
    concurrency: QUEUE_WORKERS.fanout,
  });
  const all = [inbox, outbox, fanout];
  return {
    inbox,
    outbox,
    fanout,
    get inFlight() {
      return all.reduce((sum, queue) => sum + queue.inFlight, 0);
    },
    async getDepth() {
      const depths = await Promise.all(all.map((queue) => queue.getDepth()));
      return depths.reduce((sum, depth) => ({
        queued: sum.queued + depth.queued,
        ready: (sum.ready ?? 0) + (depth.ready ?? 0),
        delayed: (sum.delayed ?? 0) + (depth.delayed ?? 0),
      }));
    },
    async drain(timeoutMs) {
      const drained = await Promise.all(all.map((queue) => queue.drain(timeoutMs)));
      return drained.every(Boolean);
    },
    close() {
      for (const queue of all) queue.close();
    },
  };
}
