import type { ActorRepository, RemoteActorData } from '../actors/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import { badRequest, notFound } from '../domain-error.ts';
import type { FeedRepository } from '../feed/repository.ts';
import type { FollowRepository } from '../follows/repository.ts';
import { logger } from '../logger.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { UserRepository } from '../users/repository.ts';
import type { BlockRecord, BlockRepository } from './repository.ts';

export interface BlockViewer {
  id: number;
}

/** Whom to block: a local user by username, or a remote account as a lookup found it. */
export type BlockTarget =
  { kind: 'local'; username: string } | { kind: 'remote'; actor: RemoteActorData };

export const CANNOT_BLOCK_SELF = "You can't block yourself.";
export const BLOCK_NOT_FOUND = 'Block not found';

/**
 * User blocks (docs/social.md, "Blocks"). A block is one row (blocker user → blocked actor,
 * local user or remote account); blocking again changes nothing. In the transaction that
 * records it, the follows between the two end both ways (and the blocker's unanswered follow
 * invitations from the blocked actor go), with what each ending tells others:
 * a local follow's Undo (its unanswered FOLLOW_INVITE is withdrawn), a remote follower's
 * Reject(Follow), the blocker's own follow of a remote account undone with Undo(Follow); the
 * feed items each side had of the other go. Everything else a block refuses or hides asks the
 * lookups below at the moment it happens (visibility, follows, shares, received entries).
 * A blocked remote account is sent a Block (Undo(Block) when unblocked), as Mastodon sends.
 * Unblocking removes the row only: ended follows stay ended.
 */
export function createBlockService(deps: {
  repo: BlockRepository;
  actors: ActorRepository;
  users: UserRepository;
  follows: FollowRepository;
  feed: FeedRepository;
  outbox: Outbox;
  transaction: Transaction;
  /** Withdraws the blocker's unanswered FOLLOW_INVITEs from the blocked actor (src/notifications/). */
  withdrawFollowInvites?: (recipientId: number, senderActorId: number) => Promise<void>;
  /** Entries of a remote account nobody here follows any more go (src/remote-entries/). */
  entries?: { forgetActor(actorUri: string): Promise<number> };
  now?: () => number;
}) {
  const { repo, actors, users, follows, feed, outbox, transaction } = deps;
  const now = deps.now ?? Date.now;

  /** Ends the follows between `me` (the blocker) and `them`; true if I followed them. */
  async function endFollows(
    viewer: BlockViewer,
    me: number,
    them: number,
    at: number,
  ): Promise<boolean> {
    const theirUserId = await actors.userIdOf(them);
    const mine = await follows.find(me, them);
    if (mine) {
      await follows.removeById(mine.id);
      await feed.removeActor(viewer.id, them);
      const payload =
        theirUserId === null && mine.activityUri ? { follow: mine.activityUri } : undefined;
      await outbox.record({
        actorId: me,
        type: 'Undo',
        objectActorId: them,
        ...(payload && { payload }),
        createdAt: at,
      });
    }
    const theirs = await follows.find(them, me);
    if (theirs) {
      await follows.removeById(theirs.id);
      if (theirUserId !== null) {
        await feed.removeActor(theirUserId, me);
        await outbox.record({ actorId: them, type: 'Undo', objectActorId: me, createdAt: at });
      } else if (theirs.activityUri) {
        const payload = { follow: theirs.activityUri };
        await outbox.record({
          actorId: me,
          type: 'Reject',
          objectActorId: them,
          payload,
          createdAt: at,
        });
      }
    }
    return mine !== undefined;
  }

  /**
   * A blocked remote account learns of the block, and of its end: a Block or an UndoBlock
   * activity naming the block (federation/block-handoff.ts sends it). A local user learns nothing.
   */
  async function tellRemote(
    me: number,
    them: number,
    type: 'Block' | 'UndoBlock',
    blockId: number,
    at: number,
  ): Promise<void> {
    if ((await actors.userIdOf(them)) !== null) return;
    const payload = { blockId };
    await outbox.record({ actorId: me, type, objectActorId: them, payload, createdAt: at });
  }

  /** The blocked local user's actor id (made outside the transaction: ids are cached once made). */
  async function localTarget(viewer: BlockViewer, username: string): Promise<number> {
    const user = await users.findByUsername(username);
    if (!user) throw notFound(`There is no user called ${username} on this vault.`);
    if (user.id === viewer.id) throw badRequest(CANNOT_BLOCK_SELF);
    return actors.localActorId(user.id);
  }

  return {
    /** Blocks the target; `created` is false when the caller had blocked it already. */
    async block(
      viewer: BlockViewer,
      target: BlockTarget,
    ): Promise<{ block: BlockRecord; created: boolean }> {
      const me = await actors.localActorId(viewer.id);
      const local =
        target.kind === 'local' ? await localTarget(viewer, target.username) : undefined;
      let unfollowed = false;
      const result = await transaction(async () => {
        const at = now();
        const them = target.kind === 'remote' ? await actors.saveRemote(target.actor, at) : local!;
        const created = (await repo.insert(viewer.id, them, at)) !== undefined;
        const block = (await repo.findByPair(viewer.id, them))!;
        if (created) {
          unfollowed = await endFollows(viewer, me, them, at);
          await deps.withdrawFollowInvites?.(viewer.id, them);
          await tellRemote(me, them, 'Block', block.id, at);
        }
        return { block, created };
      });
      // Awaited, so that the answer comes after the entries are gone (on PostgreSQL a read that
      // follows is not held back by the removal's transaction, as it is on SQLite).
      if (unfollowed && target.kind === 'remote' && deps.entries) {
        await deps.entries.forgetActor(target.actor.uri).catch((error: unknown) => {
          logger.warn('Could not remove the entries of {actor}: {error}', {
            actor: target.actor.uri,
            error: String(error).slice(0, 300),
          });
        });
      }
      return result;
    },

    /** The caller's blocks, most recent first. */
    list(viewer: BlockViewer): Promise<BlockRecord[]> {
      return repo.list(viewer.id);
    },

    /** Removes the caller's block `id`; the follows it ended are not restored. */
    async unblock(viewer: BlockViewer, id: number): Promise<void> {
      await transaction(async () => {
        const them = await repo.remove(viewer.id, id);
        if (them === undefined) throw notFound(BLOCK_NOT_FOUND);
        // Read only after the block is known: the blocker's actor was made when blocking, and
        // a refused unblock must write nothing (localActorId makes a missing actor).
        await tellRemote(await actors.localActorId(viewer.id), them, 'UndoBlock', id, now());
      });
    },

    /**
     * Whether the local user `userId` blocked the actor `actorId`, or that actor is a local
     * user who blocked them: what refuses a follow, a share, a cheer or a comment between
     * them, and hides one's from the other. One indexed query.
     */
    isBlockedEitherWay(userId: number, actorId: number): Promise<boolean> {
      return repo.isBlockedEitherWay(userId, actorId);
    },

    /** Whether one of two local users blocked the other. */
    isBlockedBetweenUsers(one: number, other: number): Promise<boolean> {
      return repo.isBlockedBetweenUsers(one, other);
    },

    /** The local users `userId` blocked or was blocked by (left out of people searches). */
    usersBlockedEitherWay(userId: number): Promise<Set<number>> {
      return repo.usersBlockedEitherWay(userId);
    },
  };
}

export type BlockService = ReturnType<typeof createBlockService>;
