import type { ThrottleLimits } from './auth/throttle.ts';
import { createAccountsContext } from './accounts-context.ts';
import { createCellarContext } from './cellar-context.ts';
import { createConversationContext } from './conversation-context.ts';
import { createDataContext } from './data-context.ts';
import { registerFederationHandoffs } from './federation-context.ts';
import { createSocialContext } from './social-context.ts';
import type { Config } from './config.ts';
import { openConfiguredDatabase } from './db/client.ts';
import { createFederationGateway } from '../federation/gateway.ts';
import { createActorRepository } from './actors/repository.ts';
import { createOutbox } from './outbox/outbox.ts';
import { createOutboxRepository } from './outbox/repository.ts';
import { createBeverageRepository } from './beverages/repository.ts';
import { createBeverageService } from './beverages/service.ts';
import { createEntryViews } from './beverages/entry-view.ts';
import { createMediaStore } from './media/images.ts';
import { createPhotoCapabilities } from './media/capabilities.ts';
import { createCapabilityRepository } from './media/capability-repository.ts';
import { createReceivedBlocks } from './blocks/received.ts';
import { createReceivedBlockRepository } from './blocks/received-repository.ts';
import { createServerSoftware } from './actors/server-software.ts';
import { createFederatedEntries } from '../federation/entry-rows.ts';
import { createProfileActivity } from './users/profile-activity.ts';
import { createProfileService } from './users/profile-service.ts';
import { createShareRepository } from './shares/repository.ts';
import { createShareService } from './shares/service.ts';
import { createVisibilityPolicy } from './visibility/policy.ts';
import { createVisibilityLookups } from './visibility/lookups.ts';
import { createEntryReader } from './beverages/by-ids.ts';
import { createFeedRepository } from './feed/repository.ts';
import { createFeedService } from './feed/service.ts';
import { createRemoteEntryRepository } from './remote-entries/repository.ts';
import { createRemoteEntryService } from './remote-entries/service.ts';
import { createBlockRepository } from './blocks/repository.ts';
import { createFollowRepository } from './follows/repository.ts';
import { createNotificationRepository } from './notifications/repository.ts';
import { createDomainBlockRepository } from './domain-blocks/repository.ts';
import { createDomainBlockService } from './domain-blocks/service.ts';
import { createInboundLimiter } from './inbound-limits/limiter.ts';
import { createIdempotencyRepository } from './idempotency/repository.ts';
import { createIdempotencyService } from './idempotency/service.ts';

export interface ContextOptions {
  /**
   * Lets outbound federation requests reach loopback and private addresses; overrides the
   * configured VAULT_ALLOW_PRIVATE_ADDRESS (tests set it for fake remote servers on 127.0.0.1).
   */
  allowPrivateAddress?: boolean;
  throttleLimits?: ThrottleLimits;
  now?: () => number;
  /**
   * Runs before a PostgreSQL database is migrated (the tests make each vault's database
   * there); not used on SQLite.
   */
  beforeMigrating?: () => Promise<void>;
}

/** Wires the database, repositories, domain services and federation together. */
export function createContext(config: Config, options: ContextOptions = {}) {
  const now = options.now ?? Date.now;
  const database = openConfiguredDatabase(config, { beforeMigrating: options.beforeMigrating });
  let closing: Promise<void> | undefined;
  const accounts = createAccountsContext(config, database, {
    throttleLimits: options.throttleLimits,
    now,
    // Made below with the outbox; asked for only when an admin edits a user.
    profileActivity: () => profileActivity,
  });
  const { users, sessions, throttle } = accounts;
  const followRepo = createFollowRepository(database.database);
  const actors = createActorRepository(database.database);
  // Blocked servers: the matcher is asked by the inbox and every outbound fetch.
  const domainBlocks = createDomainBlockService({
    repo: createDomainBlockRepository(database.database),
    origin: config.origin,
    transaction: database.transaction,
    remoteActors: () => actors.remoteActors(),
    removeFollowsWith: (actorId) => followRepo.removeFollowsWith(actorId),
    forgetEntries: (actorUri) => remoteEntries.forgetActor(actorUri, { always: true }),
    now,
  });
  const federation = createFederationGateway({
    config,
    database,
    users,
    allowPrivateAddress: options.allowPrivateAddress ?? config.allowPrivateAddress,
    blocks: domainBlocks.matcher,
    remoteEntries: () => remoteEntries,
    // Follows with remote actors: the inbox's listeners, and followers gone for good.
    remoteFollows: () => remoteFollows,
    remoteConversation: () => remoteConversation,
    receivedBlocks: () => receivedBlocks,
    onDeliveryGone: async (_inbox, actorIds) => {
      await remoteFollows.deliveryGone(actorIds.map((id) => id.href));
    },
    onActorGone: async (actorUri) => {
      await remoteFollows.actorGone(actorUri.href);
    },
  });
  const media = createMediaStore(config.uploadsDir);
  const { transaction } = database;
  const outbox = createOutbox({
    repo: createOutboxRepository(database.database),
    transaction,
    localUserOf: (actorId) => actors.userIdOf(actorId),
    now,
  });
  const profileActivity = createProfileActivity({ actors, outbox, now });
  const beverageRepo = createBeverageRepository(database.database);
  const shareRepo = createShareRepository(database.database);
  const visibilityLookups = createVisibilityLookups(database.database);
  const blockRepo = createBlockRepository(database.database);
  const visibility = createVisibilityPolicy({
    blockedBetween: blockRepo.isBlockedBetweenUsers,
    isShareRecipient: (entryId, userId) => shareRepo.isRecipient(entryId, userId),
    followsOwner: visibilityLookups.followsOwner,
    sharedByOwnerWith: visibilityLookups.sharedByOwnerWith,
    photoOwner: async (storedPath) => {
      const entry = await beverageRepo.ownerOfPhoto(storedPath);
      if (entry) return { kind: 'entry', entry };
      // A tasting's photo is seen by whoever may see its entry.
      const tasting = await cellar.tastingRows.ownerOfPhoto(storedPath);
      const tasted = tasting && (await beverageRepo.findById(tasting.beverageId));
      if (tasted) return { kind: 'tasting', entry: tasted };
      const remote = await remoteEntryRepo.ownerOfPhoto(storedPath);
      return remote === undefined ? null : { kind: 'remote' };
    },
  });
  const beverages = createBeverageService({
    repo: beverageRepo,
    users,
    media,
    actors,
    outbox,
    transaction,
    shares: shareRepo,
    visibility,
    // An entry's bottles go with it: the cellar's history records them as taken off.
    // Its tastings go too: their Notes are withdrawn, their photo files deleted after.
    onDelete: async (entry) => {
      await cellar.bottles.entryDeleted(entry);
      return cellar.tastings.entryDeleted(entry);
    },
    // Leaving the fediverse or coming back, its tastings' Notes follow its own.
    onFederationChange: (entry, change) => cellar.tastings.entryFederationChanged(entry, change),
    now,
  });
  const cellar = createCellarContext(database, {
    entries: beverageRepo,
    actors,
    outbox,
    now,
    visibility,
    media,
  });
  const notificationRepo = createNotificationRepository(database.database);
  const shares = createShareService({
    blocks: blockRepo,
    repo: shareRepo,
    beverages,
    users,
    actors,
    outbox,
    transaction,
    withdrawInvites: (shareId) => notificationRepo.withdrawShareInvites(shareId),
    now,
  });
  const feedRepo = createFeedRepository(database.database);
  const remoteEntryRepo = createRemoteEntryRepository(database.database);
  const remoteEntries = createRemoteEntryService({
    repo: remoteEntryRepo,
    feed: feedRepo,
    media,
    beverages,
    transaction,
    now,
  });
  const feed = createFeedService({
    repo: feedRepo,
    entries: createEntryReader(database.database),
    visibility,
    remoteEntries: remoteEntryRepo,
    tastings: cellar.tastingRows,
  });
  feed.registerDelivery(outbox);
  const social = createSocialContext(database, {
    origin: config.origin,
    users,
    actors,
    blocks: blockRepo,
    feed: feedRepo,
    outbox,
    remoteEntries,
    notifications: notificationRepo,
    shares,
    now,
  });
  const { remoteFollows, followRequests } = social;
  const federatedEntries = createFederatedEntries(database.database);
  const {
    conversation,
    remoteConversation,
    repo: conversationRepo,
  } = createConversationContext(database, {
    entries: beverageRepo,
    visibility,
    feed: feedRepo,
    actors,
    blocks: blockRepo,
    notifications: notificationRepo,
    outbox,
    // A remote reply's entry: federated, of a federating user, at its Note's generation.
    federatedEntry: async ({ username, entryId, generation }) => {
      const owner = await users.findFederatedByUsername(username);
      const entry = owner && (await federatedEntries.byId(entryId));
      if (!owner || !entry || entry.userId !== owner.id) return undefined;
      return entry.noteGeneration === generation ? entry : undefined;
    },
    federatedEntryById: async (entryId) => {
      const entry = await federatedEntries.byId(entryId);
      return entry && (await users.findById(entry.userId))?.activityPubEnabled ? entry : undefined;
    },
    isFollower: (userId, actorUri) => followRepo.isFollower(userId, actorUri),
    roleOf: async (userId) => (await users.findById(userId))?.role,
    localHost: new URL(config.origin).host,
    now,
  });
  // Activities that go to other servers, handed to Fedify's queue after the local deliveries.
  registerFederationHandoffs(database, outbox, {
    origin: config.origin,
    users,
    actors,
    remoteEntries: remoteEntryRepo,
    federatedEntries,
    tastings: cellar.tastingRows,
    federation,
  });
  const receivedBlocks = createReceivedBlocks({
    repo: createReceivedBlockRepository(database.database),
    actors,
    users,
    follows: followRepo,
    feed: feedRepo,
    conversation: conversationRepo,
    withdrawFollowInvites: (recipientId, senderId) =>
      notificationRepo.dropPendingFollowInvites(recipientId, senderId),
    transaction,
    origin: config.origin,
    entries: remoteEntries,
    now,
  });
  const photoCapabilities = createPhotoCapabilities(
    createCapabilityRepository(database.database),
    now,
  );
  const data = createDataContext(config, database, {
    entries: beverageRepo,
    users,
    media,
    shares: shareRepo,
    now,
  });
  return {
    config,
    database,
    ...accounts,
    ...cellar,
    ...social,
    ...data,
    media,
    photoCapabilities,
    profiles: createProfileService({
      users,
      sessions,
      media,
      throttle,
      followRequests,
      profileActivity,
      transaction,
    }),
    beverages,
    visibility,
    shares,
    conversation,
    /** The entries a client gets, for every route that answers with entries. */
    entryViews: createEntryViews(conversation),
    domainBlocks,
    serverSoftware: createServerSoftware(database.database),
    idempotency: createIdempotencyService({
      repo: createIdempotencyRepository(database.database),
      now,
    }),
    inboundLimits: createInboundLimiter(
      {
        windowMs: 60 * 60_000,
        perActor: config.inbound.perActorPerHour,
        perServer: config.inbound.perServerPerHour,
        storedEntriesPerActor: config.inbound.storedEntriesPerActor,
      },
      { storedEntries: (actorUri) => remoteEntryRepo.countOfActor(actorUri), now },
    ),
    feed,
    remoteEntries,
    actors,
    outbox,
    federation,
    /** Stops background work and closes the database; once, however often it is called. */
    close() {
      closing ??= (async () => {
        await data.imports.stop();
        await outbox.stop();
        await federation.stop();
        await database.close();
      })();
      return closing;
    },
  };
}

export type AppContext = ReturnType<typeof createContext>;
