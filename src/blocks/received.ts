import type { ActorRepository, RemoteActorData } from '../actors/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import type { FeedRepository } from '../feed/repository.ts';
import type { FollowRepository } from '../follows/repository.ts';
import { logger } from '../logger.ts';
import type { UserRepository } from '../users/repository.ts';
import type { ReceivedBlockRepository } from './received-repository.ts';

/** A Block as the inbox read it, already verified (the signer is the activity's actor). */
export interface ReceivedBlock {
  actorUri: string;
  /** The blocked local user, from the Block's object. */
  username: string;
  /** The Block's id, which its Undo names. */
  activityUri: string;
  /** The blocker's actor document, fetched by the inbox when the actor is not stored here. */
  actor?: RemoteActorData | undefined;
}

/** What became of a received Block or Undo(Block) (for the inbox's log). */
export type ReceivedBlockOutcome = 'stored' | 'unchanged' | 'ignored';

/**
 * Blocks received from remote accounts (docs/social.md, "Blocks"). A remote actor blocking a
 * federating vault user is recorded (received_blocks, one row per pair; the same Block again
 * changes nothing) and, in the same transaction, ends every follow between them both ways
 * (her follow of them goes, and their entries leave her feed), withdraws their unanswered
 * follow notifications, and removes their cheers and comments from her entries. While the row
 * stands the block rule says they are blocked (`isBlockedEitherWay` of repository.ts), so the
 * paths that ask it refuse: her follow of them (403), their Follow (ignored, logged), their
 * replies and Likes of her things; and no delivery signed by her goes to them
 * (`refusesDelivery`, asked by the delivery queue). Its Undo(Block) removes the row: nothing
 * ended is restored, but follows and replies work again.
 */
export function createReceivedBlocks(deps: {
  repo: ReceivedBlockRepository;
  actors: ActorRepository;
  users: Pick<UserRepository, 'findFederatedByUsername'>;
  follows: FollowRepository;
  feed: FeedRepository;
  conversation: { removeActorOnEntriesOf(actorId: number, userId: number): number };
  /** Withdraws the user's unanswered FOLLOW_INVITEs and FOLLOW_REQUESTs from the actor. */
  withdrawFollowInvites?: (recipientId: number, senderActorId: number) => void;
  transaction: Transaction;
  /** The vault's origin: a local actor's URI is `{origin}/users/{username}`. */
  origin: string;
  /** Entries of a remote account nobody here follows any more go (src/remote-entries/). */
  entries?: { forgetActor(actorUri: string): Promise<number> };
  now?: () => number;
}) {
  const { repo, actors, follows, feed, transaction } = deps;
  const now = deps.now ?? Date.now;
  const localPrefix = `${deps.origin}/users/`;

  /** Ends what stood between the blocker and the user; true if she followed them. */
  function endAll(userId: number, me: number, them: number): boolean {
    const mine = follows.find(me, them);
    if (mine) {
      follows.removeById(mine.id);
      feed.removeActor(userId, them);
    }
    const theirs = follows.find(them, me);
    if (theirs) follows.removeById(theirs.id);
    deps.withdrawFollowInvites?.(userId, them);
    deps.conversation.removeActorOnEntriesOf(them, userId);
    return mine !== undefined;
  }

  return {
    /** Whether the actor is stored here (else the inbox fetches its document first). */
    knowsActor(actorUri: string): boolean {
      return actors.findRemoteByUri(actorUri) !== undefined;
    },

    /** The remote actor blocks the local user: recorded, with its effects, once. */
    receiveBlock(block: ReceivedBlock): ReceivedBlockOutcome {
      const user = deps.users.findFederatedByUsername(block.username);
      const known = actors.findRemoteByUri(block.actorUri);
      if (!user || (!known && !block.actor)) return 'ignored';
      const me = actors.localActorId(user.id);
      let unfollowed = false;
      const outcome = transaction(() => {
        const at = now();
        const them = known?.id ?? actors.saveRemote(block.actor!, at);
        if (!repo.insert(them, user.id, block.activityUri, at)) return 'unchanged';
        unfollowed = endAll(user.id, me, them);
        return 'stored';
      });
      if (unfollowed && deps.entries) {
        deps.entries.forgetActor(block.actorUri).catch((error: unknown) => {
          logger.warn('Could not remove the entries of {actor}: {error}', {
            actor: block.actorUri,
            error: String(error).slice(0, 300),
          });
        });
      }
      return outcome;
    },

    /**
     * Undo(Block): the actor's block named by `activityUri` goes, or, when the Undo names its
     * Block by actor and object only, the actor's block of `username`. Nothing ended is restored.
     */
    receiveUndoBlock(
      actorUri: string,
      activityUri: string,
      username: string | null,
    ): ReceivedBlockOutcome {
      const them = actors.findRemoteByUri(actorUri);
      if (!them) return 'ignored';
      const user = username === null ? undefined : deps.users.findFederatedByUsername(username);
      return repo.remove(them.id, activityUri, user?.id ?? null) ? 'stored' : 'unchanged';
    },

    /**
     * Whether a delivery signed by `signerUri` must not go: the signer is a local user and every
     * recipient behind the inbox (`recipientUris`, at least one) is an account that blocked her.
     */
    refusesDelivery(signerUri: string, recipientUris: readonly string[]): boolean {
      if (!signerUri.startsWith(localPrefix) || recipientUris.length === 0) return false;
      const username = decodeURIComponent(signerUri.slice(localPrefix.length));
      const user = deps.users.findFederatedByUsername(username);
      return user !== undefined && repo.allBlocked(user.id, recipientUris);
    },
  };
}

export type ReceivedBlocks = ReturnType<typeof createReceivedBlocks>;
