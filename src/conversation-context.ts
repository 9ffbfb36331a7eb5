import type { ActorRepository } from './actors/repository.ts';
import type { BeverageRepository } from './beverages/repository.ts';
import type { BlockRepository } from './blocks/repository.ts';
import { registerConversationNotifications } from './conversation/notifications.ts';
import { createRemoteConversation } from './conversation/remote.ts';
import { createRemoteThreadRepository } from './conversation/remote-thread-repository.ts';
import { createConversationRepository } from './conversation/repository.ts';
import { createConversationService, type EntryRef } from './conversation/service.ts';
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
    /** The same by entry id (the entry a comment a remote reply answers is under). */
    federatedEntryById: Parameters<typeof createRemoteConversation>[0]['federatedEntryById'];
    /** Whether the actor is an accepted remote follower of the user. */
    isFollower(userId: number, actorUri: string): Promise<boolean>;
    /** A local user's role (whether they may see an entry), undefined for no user. */
    roleOf(userId: number): Promise<Role | undefined>;
    /** This vault's host: `@name@{host}` in a comment names a local user. */
    localHost: string;
    now: () => number;
  },
) {
  const { entries, actors, blocks, outbox, now } = options;
  const { transaction } = database;
  const repo = createConversationRepository(database.database);
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
  const maySeeEntry = async (userId: number, entry: EntryRef) => {
    const role = await options.roleOf(userId);
    return role !== undefined && (await conversation.maySee({ id: userId, role }, entry));
  };
  registerConversationNotifications(outbox, {
    repo,
    notifications: options.notifications,
    actors,
    ownerOf: async (beverageId) => (await entries.findById(beverageId))?.userId,
    maySeeEntry,
  });
  // Cheers and replies of remote accounts (the inbox), and local ones on remote vaults' entries.
  const remoteConversation = createRemoteConversation({
    repo,
    threads: createRemoteThreadRepository(database.database),
    federatedEntry: options.federatedEntry,
    federatedEntryById: options.federatedEntryById,
    maySee: (userId, entryId) => maySeeEntry(userId, { kind: 'local', id: entryId }),
    isFollower: options.isFollower,
    actors,
    blocks,
    outbox,
    transaction,
    now,
  });
  return { conversation, remoteConversation, repo };
}
