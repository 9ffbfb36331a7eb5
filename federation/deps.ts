import type { Config } from '../src/config.ts';
import type { UserRepository } from '../src/users/repository.ts';
import type { RemoteEntryService } from '../src/remote-entries/service.ts';
import type { RemoteFollowService } from '../src/follows/remote.ts';
import type { RemoteConversation } from '../src/conversation/remote.ts';
import type { ReceivedBlocks } from '../src/blocks/received.ts';
import type { CollectionSources } from './collections.ts';
import type { ActorKeyStore } from './keys.ts';

/** What the dispatchers and listeners need from the rest of the app. */
export interface FederationDeps {
  config: Config;
  users: UserRepository;
  keys: ActorKeyStore;
  collections: CollectionSources;
  /** Users visible to the fediverse (activityPubEnabled), for NodeInfo. */
  countFederatedUsers(): Promise<number>;
  /**
   * Entries that go to the fediverse (src/visibility/policy.ts) of users with
   * activityPubEnabled, for NodeInfo's localPosts.
   */
  countFederatedEntries(): Promise<number>;
  /**
   * Entries received from followed remote vaults (federation/inbox/*-note.ts). The app always
   * gives it; a federation built alone (tests of the plumbing) has none and ignores Notes.
   */
  remoteEntries?: RemoteEntryService | undefined;
  /**
   * Follows with remote actors (federation/inbox/follow.ts, undo.ts, ...). The app always gives
   * it; without it follows and actor updates are ignored.
   */
  remoteFollows?: RemoteFollowService | undefined;
  /** Blocks from remote accounts (federation/inbox/block.ts); without it they are ignored. */
  receivedBlocks?: ReceivedBlocks | undefined;
  /** Blocked servers: the inbox's own fetches (a Note) refuse them. */
  blocks?: { blockOf(url: string | URL): string | undefined } | undefined;
  /**
   * Cheers and replies of remote accounts on local entries (federation/inbox/like.ts,
   * reply.ts…). The app always gives it; without it they are ignored.
   */
  remoteConversation?: RemoteConversation | undefined;
  /** VAULT_ALLOW_PRIVATE_ADDRESS, for the inbox's own fetches (a Note, a photo). */
  allowPrivateAddress: boolean;
}
