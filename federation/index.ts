// The federation module: Fedify's federation object (loaded through gateway.ts) and what it
// serves, receives and sends. How its files are named for what they do with the vault's
// activities:
// - `*-handoff.ts`: a federating handler of the outbox (src/outbox/handoffs.ts): which outbox
//   rows of its kinds leave the vault, turned into a job in plain data (who sends what to whom).
//   Loaded at start, without Fedify.
// - `*-delivery.ts`: turns such a job into its ActivityPub activity and puts it in Fedify's queue
//   of deliveries, which signs it and POSTs it to each inbox. Loaded with Fedify.
// - `*-notes.ts`: the Notes of a kind of object as they are sent or served (entry-notes.ts, the
//   input of entries' and tastings' Notes; comment-notes.ts, a comment's Note on a GET);
//   `note*.ts` build and read Notes; `inbox/` holds one listener per received activity.
// "Outbox" means two things only: the vault's transactional outbox of domain activities
// (src/outbox/, "the outbox"), and a user's ActivityPub outbox collection
// (outbox-collection.ts). Fedify's queue of outgoing deliveries is the `deliveries` channel of
// federation_queue (queues.ts), handed to Fedify under its option name `outbox`.
import {
  createFederation,
  getUserAgent,
  type DocumentLoader,
  type Federation,
  type RetryPolicy,
} from '@fedify/fedify';
import { getLogger } from '@logtape/logtape';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/client.ts';
import type { UserRepository } from '../src/users/repository.ts';
import type { RemoteEntryService } from '../src/remote-entries/service.ts';
import type { RemoteFollowService } from '../src/follows/remote.ts';
import type { RemoteConversation } from '../src/conversation/remote.ts';
import { createFollowRepository } from '../src/follows/repository.ts';
import { followersSource, followingSource } from './follow-collections.ts';
import { createActorKeyRepository } from './actor-key-repository.ts';
import { createCapabilityRepository } from '../src/media/capability-repository.ts';
import { createPhotoCapabilities } from '../src/media/capabilities.ts';
import { createMediaStore } from '../src/media/images.ts';
import { createEntryAudience } from './entry-audience.ts';
import type { EntryDeliveryJob } from './entry-delivery.ts';
import { sendEntryActivity } from './entry-delivery.ts';
import { createEntryNotes } from './entry-notes.ts';
import { createFederatedEntries } from './entry-rows.ts';
import type { TastingDeliveryJob } from './tasting-delivery.ts';
import { sendTastingActivity } from './tasting-delivery.ts';
import type { ProfileDeliveryJob } from './profile-delivery.ts';
import type { ReceivedBlocks } from '../src/blocks/received.ts';
import { sendProfileUpdate } from './profile-delivery.ts';
import {
  goneNoteResponse,
  instanceActorLookups,
  registerNoteDispatcher,
} from './note-dispatcher.ts';
import { createOutboxSource } from './outbox-collection.ts';
import { commentNoteResponse } from './comment-notes.ts';
import { entryRepliesResponse } from './entry-replies.ts';
import { createConversationRepository } from '../src/conversation/repository.ts';
import { createNoteReads } from '../src/conversation/note-reads.ts';
import { createRemoteEntryRepository } from '../src/remote-entries/repository.ts';
import { createActorRepository } from '../src/actors/repository.ts';
import { registerActors } from './actors.ts';
import { registerCollections } from './collections.ts';
import {
  acceptDeleteOfGoneActor,
  deliveryRetryPolicy,
  FIRST_KNOCK,
  PERMANENT_FAILURE_STATUSES,
  registerDeliveryFailures,
  type ActorGoneHandler,
  type DeliveryGoneHandler,
} from './delivery-policy.ts';
import type { FederationDeps } from './deps.ts';
import { registerInbox } from './inbox.ts';
import { createInstanceKeyStore } from './instance-actor.ts';
import { INSTANCE_ACTOR } from './paths.ts';
import { createActorKeyStore, type ActorKeyStore } from './keys.ts';
import { SqliteKvStore, type SqliteKvStoreOptions } from './kv-store.ts';
import {
  createFederationQueues,
  type FederationQueues,
  type SharedQueueOptions,
} from './queues.ts';
import { registerNodeInfo } from './nodeinfo.ts';
import { canonicalWebFingerRequest } from './webfinger.ts';
import { boundOutboundHttp, type HttpBounds } from './http-bounds.ts';
import { OUTBOUND_LIMITS, userDocumentLoader } from './outbound.ts';

export { SqliteKvStore } from './kv-store.ts';
export { SqliteMessageQueue } from './message-queue.ts';
export type { FederationQueues } from './queues.ts';
export { FEDERATION_PATHS, INSTANCE_ACTOR } from './paths.ts';
export type { ActorGoneHandler, DeliveryGoneHandler } from './delivery-policy.ts';

const logger = getLogger(['vault', 'federation']);

/** How long stop() waits for running queue handlers before the database may close. */
const DEFAULT_DRAIN_MS = 5_000;

export interface VaultFederationOptions {
  config: Config;
  database: DatabaseHandle;
  users: UserRepository;
  /**
   * Lets outbound requests reach loopback, private and link-local addresses (remote actors,
   * keys, documents): VAULT_ALLOW_PRIVATE_ADDRESS, or a test's fake servers on 127.0.0.1.
   */
  allowPrivateAddress?: boolean;
  /**
   * A delivery failed for good: the inbox answered 404 or 410 (`gone`), or the host stayed
   * unreachable past the circuit breaker's retention (`unreachable`). Called once per failed
   * delivery with the recipients behind that inbox. Only logged by default.
   */
  onDeliveryGone?: DeliveryGoneHandler;
  /** A remote actor deleted itself and its key answers 410 Gone. Only logged by default. */
  onActorGone?: ActorGoneHandler;
  /** Replaces the delivery retry policy (delivery-policy.ts); tests shorten the delays. */
  outboxRetryPolicy?: RetryPolicy;
  /** Replaces the bounds of every outbound request (http-bounds.ts); tests shorten them. */
  httpBounds?: HttpBounds;
  /**
   * Blocked servers (src/domain-blocks/): the document loaders (lookups, the inbox's fetches)
   * refuse their URLs. The inbox refuses their deliveries before Fedify (src/http/federation.ts).
   */
  blocks?: { blockOf(url: string | URL): string | undefined };
  /** Entries received from followed remote vaults, asked for when Fedify loads (the inbox). */
  remoteEntries?: () => RemoteEntryService;
  /** Follows with remote actors, asked for when Fedify loads (the inbox's Follow, Undo...). */
  remoteFollows?: () => RemoteFollowService;
  /** Cheers and replies of remote accounts, asked for when Fedify loads (the inbox). */
  remoteConversation?: () => RemoteConversation;
  /** Blocks from remote accounts, asked for when Fedify loads (the inbox's Block). */
  receivedBlocks?: () => ReceivedBlocks;
  /** Options of the three queues (inbox, deliveries, fanout); their workers are in queues.ts. */
  queueOptions?: SharedQueueOptions;
  kvOptions?: SqliteKvStoreOptions;
  /** The longest stop() waits for running handlers. 5 s by default. */
  drainTimeoutMs?: number;
}

export interface VaultFederation {
  /** Fedify's federation object, handed to the HTTP middleware. */
  federation: Federation<void>;
  /** Fedify's queues: incoming activities, deliveries and fan-out, each with its own workers. */
  queue: FederationQueues;
  kv: SqliteKvStore;
  keys: ActorKeyStore;
  /** Whether outbound requests may reach private addresses (VAULT_ALLOW_PRIVATE_ADDRESS). */
  allowPrivateAddress: boolean;
  /**
   * A document loader for lookups made on behalf of `username`: every GET signed with the
   * user's key (the instance actor's if the user has none), private addresses refused unless
   * allowed, 10 s timeout, 1 MB bodies, redirects checked (outbound.ts).
   */
  documentLoaderFor(username: string): Promise<DocumentLoader>;
  /**
   * Builds an entry's Create / Update / Delete and queues it for the author's followers
   * (entry-delivery.ts); resolves once it is in the queue.
   */
  sendEntryActivity(job: EntryDeliveryJob): Promise<void>;
  /** The same for a tasting's Create / Update / Delete (tasting-delivery.ts). */
  sendTastingActivity(job: TastingDeliveryJob): Promise<void>;
  /** A user's Update(Person) to the servers of her followers (profile-delivery.ts). */
  sendProfileUpdate(job: ProfileDeliveryJob): Promise<void>;
  /** Starts the queue workers (inbox processing, fan-out and outgoing delivery). Idempotent. */
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
  const db = database.database;
  const kv = new SqliteKvStore(db, options.kvOptions);
  const queue = createFederationQueues(db, options.queueOptions, {
    domains: options.blocks,
    received: () => options.receivedBlocks?.(),
  });
  const keys = createActorKeyStore(createActorKeyRepository(db), config.rsaKeyBits);
  const instanceKeys = createInstanceKeyStore(kv, config.rsaKeyBits);
  const allowPrivateAddress = options.allowPrivateAddress ?? false;
  const software = `vault/${packageJson.version}`;
  boundOutboundHttp(options.httpBounds);

  const federation = createFederation<void>({
    kv,
    // Incoming activities never wait behind deliveries (queues.ts).
    queue: { inbox: queue.inbox, outbox: queue.deliveries, fanout: queue.fanout },
    // Ids, handles and links come from VAULT_ORIGIN, never from the request's Host header.
    origin: config.origin,
    allowPrivateAddress,
    // The server starts the worker (startQueue) once it listens; not on the first enqueue.
    manuallyStartQueue: true,
    userAgent: { software, url: config.origin },
    firstKnock: FIRST_KNOCK,
    outboxRetryPolicy: options.outboxRetryPolicy ?? deliveryRetryPolicy(),
    permanentFailureStatusCodes: PERMANENT_FAILURE_STATUSES,
  });

  // Entries as Notes: the Note of each entry, its delivery and the outbox (entry-*.ts).
  const entries = createFederatedEntries(db);
  const audience = createEntryAudience(db);
  const notes = createEntryNotes({
    origin: config.origin,
    capabilities: createPhotoCapabilities(createCapabilityRepository(db)),
    media: createMediaStore(config.uploadsDir),
  });

  // A signed GET's key and owner are fetched signed as the instance actor (note-dispatcher.ts).
  const lookups = instanceActorLookups(kv);

  const deps: FederationDeps = {
    config,
    users,
    keys,
    collections: {
      followers: followersSource(createFollowRepository(db)),
      following: followingSource(createFollowRepository(db)),
      outbox: createOutboxSource({ origin: config.origin, entries, audience, notes, lookups }),
    },
    countFederatedUsers: () => users.countFederated(),
    countFederatedEntries: () => entries.countFederated(),
    remoteEntries: options.remoteEntries?.(),
    remoteFollows: options.remoteFollows?.(),
    blocks: options.blocks,
    remoteConversation: options.remoteConversation?.(),
    receivedBlocks: options.receivedBlocks?.(),
    allowPrivateAddress,
  };
  registerActors(federation, deps, instanceKeys);
  registerCollections(federation, deps);
  registerInbox(federation, deps)
    // Fedify's own GETs for the shared inbox (the key that signed a delivery) are signed as
    // the instance actor, so that servers in authorized-fetch mode answer them.
    .setSharedKeyDispatcher(() => ({ identifier: INSTANCE_ACTOR }))
    .onUnverifiedActivity(acceptDeleteOfGoneActor(options.onActorGone));
  registerDeliveryFailures(federation, options.onDeliveryGone);
  registerNodeInfo(federation, deps);
  const noteDeps = { origin: config.origin, users, entries, audience, notes, lookups };
  registerNoteDispatcher(federation, noteDeps);
  // Before Fedify routes a request: a withdrawn Note's id answers 410 Gone, a comment's Note is
  // served (comment-notes.ts), so is an entry Note's replies collection (entry-replies.ts), and a WebFinger handle is written canonically (webfinger.ts).
  const commentDeps = {
    origin: config.origin,
    users,
    comments: createConversationRepository(db),
    notes: createNoteReads(db),
    remoteEntries: createRemoteEntryRepository(db),
    actors: createActorRepository(db),
    entries,
    audience,
    lookups,
  };
  const fedifyFetch = federation.fetch.bind(federation);
  federation.fetch = async (request, fetchOptions) =>
    (await goneNoteResponse(federation, noteDeps, request)) ??
    (await commentNoteResponse(federation, commentDeps, request)) ??
    (await entryRepliesResponse(federation, commentDeps, request)) ??
    fedifyFetch(canonicalWebFingerRequest(request), fetchOptions);

  let controller: AbortController | undefined;
  let listening: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;

  return {
    federation,
    queue,
    kv,
    keys,
    allowPrivateAddress,
    documentLoaderFor(username) {
      const ctx = federation.createContext(new URL(config.origin), undefined);
      return userDocumentLoader(ctx, username, {
        allowPrivateAddress,
        blocks: options.blocks,
        userAgent: getUserAgent({ software, url: config.origin }),
        ...OUTBOUND_LIMITS,
      });
    },
    async sendEntryActivity(job) {
      // From the Delete on, the Note's id answers 410 with its Tombstone (note-dispatcher.ts).
      if (job.kind === 'Delete') {
        const { username, generation, deletedAt } = job;
        await entries.generations.withdraw(job.entryId, { username, generation, deletedAt });
      }
      await sendEntryActivity(federation, notes, config.origin, job);
    },
    sendTastingActivity: (job) => sendTastingActivity(federation, notes, config.origin, job),
    sendProfileUpdate: (job) => sendProfileUpdate(federation, users, config.origin, job),
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
