import type { ActorRepository } from './actors/repository.ts';
import type { BlockRepository } from './blocks/repository.ts';
import { createBlockService } from './blocks/service.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { FeedRepository } from './feed/repository.ts';
import { createFollowRepository } from './follows/repository.ts';
import { createRemoteFollowService } from './follows/remote.ts';
import { createFollowRequests } from './follows/requests.ts';
import { createFollowService } from './follows/service.ts';
import { createUserSearch } from './follows/user-search.ts';
import { registerNotificationDelivery } from './notifications/delivery.ts';
import type { NotificationRepository } from './notifications/repository.ts';
import { createNotificationService } from './notifications/service.ts';
import type { Outbox } from './outbox/outbox.ts';
import type { RemoteEntryService } from './remote-entries/service.ts';
import type { ShareService } from './shares/service.ts';
import type { UserRepository } from './users/repository.ts';

/**
 * The social part of the context (src/context.ts): follows, local and remote, with their
 * requests, blocks, and the notifications that answer shares and follows. Registers the
 * notifications' delivery from the outbox.
 */
export function createSocialContext(
  database: DatabaseHandle,
  options: {
    /** VAULT_ORIGIN: the ids of the Follows sent to remote actors. */
    origin: string;
    users: UserRepository;
    actors: ActorRepository;
    blocks: BlockRepository;
    feed: FeedRepository;
    outbox: Outbox;
    /** Entries received from remote actors: dropped when their follow ends. */
    remoteEntries: RemoteEntryService;
    notifications: NotificationRepository;
    /** Share invites are answered from the notifications. */
    shares: ShareService;
    now: () => number;
  },
) {
  const { users, actors, feed, outbox, remoteEntries, now } = options;
  const { transaction } = database;
  const blockRepo = options.blocks;
  const notificationRepo = options.notifications;
  const remoteFollows = createRemoteFollowService({
    blocks: blockRepo,
    repo: createFollowRepository(database.database),
    actors,
    users,
    feed,
    outbox,
    transaction,
    origin: options.origin,
    entries: remoteEntries,
    now,
  });
  const blocks = createBlockService({
    repo: blockRepo,
    actors,
    users,
    follows: createFollowRepository(database.database),
    feed,
    outbox,
    transaction,
    entries: remoteEntries,
    withdrawFollowInvites: (recipientId, senderId) =>
      notificationRepo.dropPendingFollowInvites(recipientId, senderId),
    now,
  });
  const follows = createFollowService({
    blocks: blockRepo,
    remote: remoteFollows,
    repo: createFollowRepository(database.database),
    search: createUserSearch(database.database, database.sqlite),
    users,
    actors,
    feed,
    outbox,
    transaction,
    now,
  });
  const followRequests = createFollowRequests({
    repo: createFollowRepository(database.database),
    actors,
    feed,
    outbox,
    transaction,
    remote: remoteFollows,
    acceptedAll: (userId, at) => notificationRepo.acceptPendingFollowRequests(userId, at),
    now,
  });
  registerNotificationDelivery(outbox, { repo: notificationRepo, actors });
  const notifications = createNotificationService({
    repo: notificationRepo,
    shares: options.shares,
    follows,
    requests: followRequests,
    transaction,
    now,
  });
  return { remoteFollows, blocks, follows, followRequests, notifications };
}
