import { createFederation, type Federation } from '@fedify/fedify';
import { getLogger } from '@logtape/logtape';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import type { UserRepository } from '../src/users/repository.ts';
import { createActorKeyRepository } from './actor-key-repository.ts';
import { registerActors } from './actors.ts';
import {
  emptyCollectionSources,
  registerCollections,
  type CollectionSources,
} from './collections.ts';
import type { FederationDeps } from './deps.ts';
import { registerInbox } from './inbox.ts';
import { createActorKeyStore, type ActorKeyStore } from './keys.ts';
import { SqliteKvStore, type SqliteKvStoreOptions } from './kv-store.ts';
import { SqliteMessageQueue, type SqliteMessageQueueOptions } from './message-queue.ts';
import { registerNodeInfo } from './nodeinfo.ts';

export { SqliteKvStore } from './kv-store.ts';
export { SqliteMessageQueue } from './message-queue.ts';
export { FEDERATION_PATHS } from './paths.ts';

const logger = getLogger(['vault', 'federation']);

/** How long stop() waits for running queue handlers before the database may close. */
const DEFAULT_DRAIN_MS = 5_000;

export interface VaultFederationOptions {
  config: Config;
  database: DatabaseHandle;
  users: UserRepository;
  /**
   * Lets Fedify fetch loopback and private addresses (remote actors, keys, documents). Only
   * tests set it, for fake remote servers on 127.0.0.1; it is never read from the environment.
   */
  allowPrivateAddress?: boolean;
  /** Where outbox, followers and following come from. Empty collections by default. */
  collections?: CollectionSources;
  queueOptions?: SqliteMessageQueueOptions;
  kvOptions?: SqliteKvStoreOptions;
  /** The longest stop() waits for running handlers. 5 s by default. */
  drainTimeoutMs?: number;
}

export interface VaultFederation {
  /** Fedify's federation object, handed to the HTTP middleware. */
  federation: Federation<void>;
  queue: SqliteMessageQueue;
  kv: SqliteKvStore;
  keys: ActorKeyStore;
  /** Starts the queue worker (inbox processing and outgoing delivery). Idempotent. */
  startQueue(): void;
  /**
   * Stops the queue worker: no new messages are taken, running handlers get a few seconds to
   * finish, then the queue and the KV store stop touching the database. Call before closing it.
   */
  stop(): Promise<void>;
}

/** The federation object with its SQLite-backed KV store and queue, dispatchers and inboxes. */
export function createVaultFederation(options: VaultFederationOptions): VaultFederation {
  const { config, database, users } = options;
  const kv = new SqliteKvStore(database.sqlite, options.kvOptions);
  const queue = new SqliteMessageQueue(database.sqlite, options.queueOptions);
  const keys = createActorKeyStore(createActorKeyRepository(database.db));

  const federation = createFederation<void>({
    kv,
    queue,
    // Ids, handles and links come from VAULT_ORIGIN, never from the request's Host header.
    origin: config.origin,
    allowPrivateAddress: options.allowPrivateAddress ?? false,
    // The server starts the worker (startQueue) once it listens; not on the first enqueue.
    manuallyStartQueue: true,
    userAgent: { software: `vault/${packageJson.version}`, url: config.origin },
  });

  const deps: FederationDeps = {
    config,
    users,
    keys,
    collections: options.collections ?? emptyCollectionSources(),
    countFederatedUsers: () => users.countFederated(),
  };
  registerActors(federation, deps);
  registerCollections(federation, deps);
  registerInbox(federation);
  registerNodeInfo(federation, deps);

  let controller: AbortController | undefined;
  let listening: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;

  return {
    federation,
    queue,
    kv,
    keys,
    startQueue() {
      if (controller || stopped) return;
      controller = new AbortController();
      listening = federation.startQueue(undefined, { signal: controller.signal }).catch((error) => {
        logger.error('The federation queue worker stopped unexpectedly: {error}', { error });
      });
      logger.debug('Federation queue worker started');
    },
    stop() {
      stopped ??= (async () => {
        controller?.abort();
        await listening;
        const drained = await queue.drain(options.drainTimeoutMs ?? DEFAULT_DRAIN_MS);
        if (!drained) {
          logger.warn(
            '{count} federation queue handlers were still running at shutdown; their messages will be handled again after a restart',
            { count: queue.inFlight },
          );
        }
        queue.close();
        kv.close();
      })();
      return stopped;
    },
  };
}
