import type { ActorRepository } from './actors/repository.ts';
import type { BeverageRepository } from './beverages/repository.ts';
import type { BlockRepository } from './blocks/repository.ts';
import { registerConversationNotifications } from './conversation/notifications.ts';
import { createRemoteConversation } from './conversation/remote.ts';
import { createConversationRepository } from './conversation/repository.ts';
import { createConversationService } from './conversation/service.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { FeedRepository } from './feed/repository.ts';
import type { NotificationRepository } from './notifications/repository.ts';
import type { Outbox } from './outbox/outbox.ts';
import type { Role } from './db/schema/index.ts';
import type { VisibilityPolicy } from './visibility/policy.ts';

/**
 * The conversation part of the context (src/context.ts): cheers and comments of local users,
 * on local entries and on entries received from remote vaults, and those of remote accounts
 * on local entries (the inbox's). Registers their notifications' delivery from the outbox;
 * the wiring registers their federation with `repo`.
 */
export function createConversationContext(
  database: DatabaseHandle,
  options: {
    entries: BeverageRepository;
    visibility: VisibilityPolicy;
    /** Feeds: a remote entry is answered only by those who hold it. */
    feed: FeedRepository;
    actors: ActorRepository;
    blocks: BlockRepository;
    notifications: NotificationRepository;
    outbox: Outbox;
    /** The federated entry a remote reply names (src/conversation/remote.ts). */
    federatedEntry: Parameters<typeof createRemoteConversation>[0]['federatedEntry'];
    /** Whether the actor is an accepted remote follower of the user. */
    isFollower(userId: number, actorUri: string): boolean;
    /** A local user's role (whether they may see an entry), undefined for no user. */
    roleOf(userId: number): Role | undefined;
    /** This vault's host: `@name@{host}` in a comment names a local user. */
    localHost: string;
    now: () => number;
  },
) {
  const { entries, actors, blocks, outbox, now } = options;
  const { transaction } = database;
  const repo = createConversationRepository(database.sqlite);
  const conversation = createConversationService({
    repo,
    entries,
    visibility: options.visibility,
    remoteEntries: options.feed,
    actors,
    outbox,
    transaction,
    localHost: options.localHost,
    now,
  });
  registerConversationNotifications(outbox, {
    repo,
    notifications: options.notifications,
    actors,
    ownerOf: (beverageId) => entries.findById(beverageId)?.userId,
    maySeeEntry: (userId, entry) => {
      const role = options.roleOf(userId);
      return role !== undefined && conversation.maySee({ id: userId, role }, entry);
    },
  });
  // Cheers and replies of remote accounts (the inbox), and local ones on remote vaults' entries.
  const remoteConversation = createRemoteConversation({
    repo,
    federatedEntry: options.federatedEntry,
    isFollower: options.isFollower,
    actors,
    blocks,
    outbox,
    transaction,
    now,
  });
  return { conversation, remoteConversation, repo };
}
