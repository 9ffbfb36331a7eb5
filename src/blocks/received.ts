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
  conversation: { removeActorOnEntriesOf(actorId: number, userId: number): Promise<number> };
  /** Withdraws the user's unanswered FOLLOW_INVITEs and FOLLOW_REQUESTs from the actor. */
  withdrawFollowInvites?: (recipientId: number, senderActorId: number) => Promise<void>;
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
  async function endAll(userId: number, me: number, them: number): Promise<boolean> {
    const mine = await follows.find(me, them);
    if (mine) {
      await follows.removeById(mine.id);
      await feed.removeActor(userId, them);
    }
    const theirs = await follows.find(them, me);
    if (theirs) await follows.removeById(theirs.id);
    await deps.withdrawFollowInvites?.(userId, them);
    await deps.conversation.removeActorOnEntriesOf(them, userId);
    return mine !== undefined;
  }

  return {
    /** Whether the actor is stored here (else the inbox fetches its document first). */
    async knowsActor(actorUri: string): Promise<boolean> {
      return (await actors.findRemoteByUri(actorUri)) !== undefined;
    },

    /** The remote actor blocks the local user: recorded, with its effects, once. */
    async receiveBlock(block: ReceivedBlock): Promise<ReceivedBlockOutcome> {
      const user = await deps.users.findFederatedByUsername(block.username);
      const known = await actors.findRemoteByUri(block.actorUri);
      if (!user || (!known && !block.actor)) return 'ignored';
      const me = await actors.localActorId(user.id);
      let unfollowed = false;
      const outcome = await transaction(async (): Promise<ReceivedBlockOutcome> => {
        const at = now();
        // Read again in the transaction: the actor may have been forgotten meanwhile.
        const stored = known && (await actors.findRemoteByUri(block.actorUri));
        const them = stored?.id ?? (block.actor && (await actors.saveRemote(block.actor, at)));
        if (them === undefined) return 'ignored';
        if (!(await repo.insert(them, user.id, block.activityUri, at))) return 'unchanged';
        unfollowed = await endAll(user.id, me, them);
        return 'stored';
      });
      // Awaited, so that the answer comes after the entries are gone (on PostgreSQL a read that
      // follows is not held back by the removal's transaction, as it is on SQLite).
      if (unfollowed && deps.entries) {
        await deps.entries.forgetActor(block.actorUri).catch((error: unknown) => {
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
    async receiveUndoBlock(
      actorUri: string,
      activityUri: string,
      username: string | null,
    ): Promise<ReceivedBlockOutcome> {
      const them = await actors.findRemoteByUri(actorUri);
      if (!them) return 'ignored';
      const user =
        username === null ? undefined : await deps.users.findFederatedByUsername(username);
      return (await repo.remove(them.id, activityUri, user?.id ?? null)) ? 'stored' : 'unchanged';
    },

    /**
     * Whether a delivery signed by `signerUri` must not go: the signer is a local user and every
     * recipient behind the inbox (`recipientUris`, at least one) is an account that blocked her.
     */
    async refusesDelivery(signerUri: string, recipientUris: readonly string[]): Promise<boolean> {
      if (!signerUri.startsWith(localPrefix) || recipientUris.length === 0) return false;
      const username = decodeURIComponent(signerUri.slice(localPrefix.length));
      const user = await deps.users.findFederatedByUsername(username);
      return user !== undefined && (await repo.allBlocked(user.id, recipientUris));
    },
  };
}

export type ReceivedBlocks = ReturnType<typeof createReceivedBlocks>;
