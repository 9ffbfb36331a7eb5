import type { MessageQueueDepth } from '@fedify/fedify';
import { getLogger } from '@logtape/logtape';
import type { Database } from '../src/db/database.ts';
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
  deliveries: 8,
  /** Deliveries of one server at the same time (its inbox host, port included). */
  perHost: 2,
  /** Turning one activity for many recipients into one delivery per inbox (no network). */
  fanout: 2,
} as const;

const logger = getLogger(['vault', 'federation', 'queue']);

/** What the three queues share; the channel, workers and per-host limit are set here. */
export type SharedQueueOptions = Omit<
  SqliteMessageQueueOptions,
  'channel' | 'concurrency' | 'hostOf' | 'perHostLimit' | 'runHandler'
>;

/** Fedify's three queues, one channel each, and what stop() and tests need of all of them. */
export interface FederationQueues {
  inbox: SqliteMessageQueue;
  /** Deliveries to other servers' inboxes: what Fedify calls its outbox queue. */
  deliveries: SqliteMessageQueue;
  fanout: SqliteMessageQueue;
  /** Handlers running now, in all three. */
  readonly inFlight: number;
  /** Waiting messages of all three (without those in flight). */
  getDepth(): Promise<MessageQueueDepth>;
  /** Waits at most timeoutMs for the running handlers of all three; true if they finished. */
  drain(timeoutMs: number): Promise<boolean>;
  close(): void;
}

/** The inbox a delivery (a Fedify message of type 'outbox') is bound for; undefined for anything else. */
function deliveryInbox(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { type, inbox } = message as { type?: unknown; inbox?: unknown };
  return type === 'outbox' && typeof inbox === 'string' ? inbox : undefined;
}

/** The host of the inbox a delivery is bound for; null for anything else. */
export function deliveryHost(message: unknown): string | null {
  const inbox = deliveryInbox(message);
  return inbox === undefined ? null : (URL.parse(inbox)?.host ?? null);
}

/**
 * Who signed a delivery (the local actor of its first key, without the key's
 * fragment) and the recipients behind its inbox; undefined for anything else.
 */
function deliveryParties(message: unknown): { signer: string; recipients: string[] } | undefined {
  if (deliveryInbox(message) === undefined) return undefined;
  const { keys, actorIds } = message as { keys?: unknown; actorIds?: unknown };
  const keyId = Array.isArray(keys) ? (keys[0] as { keyId?: unknown } | undefined)?.keyId : null;
  if (typeof keyId !== 'string' || !Array.isArray(actorIds)) return undefined;
  const recipients = actorIds.filter((id): id is string => typeof id === 'string');
  return { signer: keyId.replace(/#.*$/, ''), recipients };
}

/** The blocks a delivery is checked against when its turn comes. */
export interface DeliveryBlocks {
  /** The admins' blocked servers: nothing goes to one. */
  domains?: { blockOf(url: string | URL): string | undefined } | undefined;
  /**
   * Blocks received from remote accounts (src/blocks/received.ts): nothing a local user signed
   * goes to an inbox whose every recipient blocked her.
   */
  received?: () =>
    | { refusesDelivery(signer: string, recipients: readonly string[]): Promise<boolean> }
    | undefined;
}

/**
 * The three queues. `blocks`: a delivery bound for a blocked server, or signed by a local user
 * for accounts that all blocked her, is dropped when its turn comes, so what was queued (or
 * waits for a retry) before the block was made is never sent there.
 */
export function createFederationQueues(
  db: Database,
  options: SharedQueueOptions = {},
  blocks: DeliveryBlocks = {},
): FederationQueues {
  const inbox = new SqliteMessageQueue(db, {
    ...options,
    channel: 'inbox',
    concurrency: QUEUE_WORKERS.inbox,
  });
  const deliveries = new SqliteMessageQueue(db, {
    ...options,
    channel: 'deliveries',
    concurrency: QUEUE_WORKERS.deliveries,
    hostOf: deliveryHost,
    perHostLimit: QUEUE_WORKERS.perHost,
    runHandler: async (handle, message) => {
      const inbox = deliveryInbox(message);
      const blocked = inbox === undefined ? undefined : blocks.domains?.blockOf(inbox);
      if (blocked !== undefined) {
        logger.info('A delivery to {inbox} was dropped: {domain} is a blocked server', {
          inbox,
          domain: blocked,
        });
        return;
      }
      const parties = blocks.received && deliveryParties(message);
      const received = parties && blocks.received?.();
      if (parties && (await received?.refusesDelivery(parties.signer, parties.recipients))) {
        logger.info('A delivery of {signer} to {inbox} was dropped: its recipients blocked them', {
          signer: parties.signer,
          inbox,
        });
        return;
      }
      await withDeliveryBounds(handle);
    },
  });
  const fanout = new SqliteMessageQueue(db, {
    ...options,
    channel: 'fanout',
    concurrency: QUEUE_WORKERS.fanout,
  });
  const all = [inbox, deliveries, fanout];
  return {
    inbox,
    deliveries,
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
