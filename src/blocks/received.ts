import type { ActorRepository } from '../actors/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import type { FeedRepository } from '../feed/repository.ts';
import type { FollowRepository } from '../follows/repository.ts';
import { logger } from '../logger.ts';
import type { UserRepository } from '../users/repository.ts';

/**
 * Blocks received from remote accounts (docs/social.md, "Blocks"): a known remote actor
 * blocking a federating vault user ends every follow between them both ways (her follow of
 * them goes, so nothing of hers is delivered to them any more, and their entries leave her
 * feed), and removes their cheers and comments from her entries, in one transaction. The block
 * itself is kept by the blocker's server, which refuses what she sends from then on; nothing
 * is stored here, so its Undo(Block) has nothing to lift here and ended follows stay ended.
 * What comes here is already verified by the inbox (the signer is the activity's actor).
 */
export function createReceivedBlocks(deps: {
  actors: ActorRepository;
  users: Pick<UserRepository, 'findFederatedByUsername'>;
  follows: FollowRepository;
  feed: FeedRepository;
  conversation: { removeActorOnEntriesOf(actorId: number, userId: number): number };
  transaction: Transaction;
  /** Entries of a remote account nobody here follows any more go (src/remote-entries/). */
  entries?: { forgetActor(actorUri: string): Promise<number> };
}) {
  const { actors, follows, feed, transaction } = deps;
  return {
    /** The remote actor `actorUri` blocks the local user `username`; false if nothing applies. */
    receiveBlock(actorUri: string, username: string): boolean {
      const them = actors.findRemoteByUri(actorUri);
      const user = deps.users.findFederatedByUsername(username);
      if (!them || !user) return false;
      const me = actors.localActorId(user.id);
      let unfollowed = false;
      transaction(() => {
        const mine = follows.find(me, them.id);
        if (mine) {
          follows.removeById(mine.id);
          feed.removeActor(user.id, them.id);
          unfollowed = true;
        }
        const theirs = follows.find(them.id, me);
        if (theirs) follows.removeById(theirs.id);
        deps.conversation.removeActorOnEntriesOf(them.id, user.id);
      });
      if (unfollowed && deps.entries) {
        deps.entries.forgetActor(actorUri).catch((error: unknown) => {
          logger.warn('Could not remove the entries of {actor}: {error}', {
            actor: actorUri,
            error: String(error).slice(0, 300),
          });
        });
      }
      return true;
    },
  };
}

export type ReceivedBlocks = ReturnType<typeof createReceivedBlocks>;
