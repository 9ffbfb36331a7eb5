import type { ActorRepository, RemoteActorData } from '../actors/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import type { FeedRepository } from '../feed/repository.ts';
import { logger } from '../logger.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { UserRepository } from '../users/repository.ts';
import type { FollowRepository } from './repository.ts';

/**
 * What a received Follow did: accepted now or before (send the Accept), a request waiting for
 * the user (`requested`), refused because the user blocked the actor (send a Reject), or
 * ignored.
 */
export type ReceivedFollow =
  { accepted: true; followUri: string } | { accepted: false; requested?: boolean; rejected?: true };

/**
 * Blocks (src/blocks/): a blocked account can neither be followed nor follow, and neither can
 * an account whose block of the user was received (its Follow is ignored, not rejected).
 */
export interface FollowBlocks {
  isBlockedEitherWay(userId: number, actorId: number): Promise<boolean>;
  isBlockedByRemote(userId: number, actorId: number): Promise<boolean>;
}

/** What remote follows are kept in and recorded by, given and received alike. */
export interface RemoteFollowStores {
  repo: FollowRepository;
  actors: ActorRepository;
  users: UserRepository;
  feed: FeedRepository;
  outbox: Outbox;
  transaction: Transaction;
  /** Blocks (src/blocks/), that refuse a follow either way. */
  blocks?: FollowBlocks;
}

/**
 * What other servers send about follows (Follow, Undo, Accept, Reject, Delete and Update of an
 * actor, failed deliveries), part of the remote follow service (src/follows/remote.ts). It comes
 * from the inbox listeners as plain data, already verified (the signer is the activity's
 * actor). Every received change is idempotent: the same activity twice changes nothing more.
 */
export function createReceivedFollows(
  deps: RemoteFollowStores & {
    /** After a follow of `actorUri` ended: its entries go if nobody here follows it now. */
    forgetEntries(actorUri: string | null | undefined, always?: boolean): Promise<void>;
    now: () => number;
  },
) {
  const { repo, actors, users, feed, outbox, transaction, forgetEntries, now } = deps;
  const blocked = async (userId: number, actorId: number) =>
    (await deps.blocks?.isBlockedEitherWay(userId, actorId)) ?? false;

  return {
    /**
     * A remote actor follows the local user `username`. Accepted at once when the user is
     * federated (the caller then sends the Accept, again for a repeated Follow, as Mastodon
     * does); refused (the caller sends a Reject) when the user blocked the actor; ignored
     * (logged) when the actor blocked the user, and otherwise. The first time, the user gets a FOLLOW_INVITE notification.
     * A user who approves followers gets a FOLLOW_REQUEST instead, and the follow stays
     * PENDING (no Accept now: src/follows/requests.ts sends it once they accept); a repeated
     * Follow of a pending request only takes its new id.
     */
    async receiveFollow(
      username: string,
      actor: RemoteActorData,
      followUri: string,
    ): Promise<ReceivedFollow> {
      const found = await users.findFederatedByUsername(username);
      if (!found) return { accepted: false };
      const me = await actors.localActorId(found.id);
      return transaction(async (): Promise<ReceivedFollow> => {
        // Read again in the transaction: whether the user federates and approves followers now.
        const user = await users.findFederatedByUsername(username);
        if (user?.id !== found.id) return { accepted: false };
        const them = await actors.saveRemote(actor, now());
        if (await deps.blocks?.isBlockedByRemote(user.id, them)) {
          logger.info('A Follow of {user} from {actor}, who blocked them, was ignored', {
            user: user.username,
            actor: actor.uri,
          });
          return { accepted: false };
        }
        if (await blocked(user.id, them)) return { accepted: false, rejected: true };
        const existing = await repo.find(them, me);
        if (existing) {
          if (existing.activityUri !== followUri) await repo.setActivityUri(existing.id, followUri);
          if (existing.state !== 'ACCEPTED') {
            if (user.approveFollowers) return { accepted: false, requested: true };
            await repo.setState(existing.id, 'ACCEPTED');
          }
          return { accepted: true, followUri };
        }
        const at = now();
        const request = user.approveFollowers;
        await repo.insertRemote(them, me, request ? 'PENDING' : 'ACCEPTED', followUri, at);
        const payload = { follow: followUri, ...(request && { request: true }) };
        await outbox.record({
          actorId: them,
          type: 'Follow',
          objectActorId: me,
          payload,
          createdAt: at,
        });
        return request ? { accepted: false, requested: true } : { accepted: true, followUri };
      });
    },

    /**
     * A remote actor undoes its Follow (`followUri`, or whatever follow it has of `username`
     * when the Undo names no id). Its unanswered FOLLOW_INVITE is withdrawn.
     */
    async receiveUndoFollow(
      actorUri: string,
      followUri: string | null,
      username: string | null,
    ): Promise<void> {
      await transaction(async () => {
        const them = await actors.findRemoteByUri(actorUri);
        if (!them) return;
        let existing = followUri ? await repo.findByActivityUri(followUri) : undefined;
        if (!existing && username) {
          const user = await users.findFederatedByUsername(username);
          existing = user
            ? await repo.find(them.id, await actors.localActorId(user.id))
            : undefined;
        }
        if (!existing || existing.followerId !== them.id) return;
        await repo.removeById(existing.id);
        await outbox.record({
          actorId: them.id,
          type: 'Undo',
          objectActorId: existing.followedId,
          payload: { follow: existing.activityUri ?? '' },
          createdAt: now(),
        });
      });
    },

    /** The remote actor accepted our Follow `followUri`: the follow is ACCEPTED. */
    receiveAccept(actorUri: string, followUri: string): Promise<boolean> {
      return transaction(async () => {
        const follow = await repo.findByActivityUri(followUri);
        const them = await actors.findRemoteByUri(actorUri);
        if (!follow || !them || follow.followedId !== them.id) return false;
        if (follow.state !== 'ACCEPTED') await repo.setState(follow.id, 'ACCEPTED');
        return true;
      });
    },

    /** The remote actor refused (or ended) our follow `followUri`: it is removed. */
    async receiveReject(actorUri: string, followUri: string): Promise<boolean> {
      const removed = await transaction(async () => {
        const follow = await repo.findByActivityUri(followUri);
        const them = await actors.findRemoteByUri(actorUri);
        if (!follow || !them || follow.followedId !== them.id) return false;
        await repo.removeById(follow.id);
        const userId = await actors.userIdOf(follow.followerId);
        if (userId !== null) await feed.removeActor(userId, them.id);
        return true;
      });
      if (!removed) return false;
      void forgetEntries(actorUri);
      return true;
    },

    /** Update(Person): a known remote actor's document is stored again; strangers are not kept. */
    receiveActorUpdate(actor: RemoteActorData): Promise<boolean> {
      return transaction(async () => {
        if (!(await actors.findRemoteByUri(actor.uri))) return false;
        await actors.saveRemote(actor, now());
        return true;
      });
    },

    /**
     * A remote actor is gone (Delete, or a 410 key): forgotten with everything it had here, its
     * entries' photo copies first (the rows would go by cascade, the files not).
     */
    async actorGone(actorUri: string): Promise<boolean> {
      if (!(await actors.findRemoteByUri(actorUri))) return false;
      await forgetEntries(actorUri, true);
      return actors.removeRemote(actorUri);
    },

    /**
     * Deliveries to these remote actors failed for good (their inbox answers 404 or 410): they
     * no longer follow anyone here.
     */
    deliveryGone(actorUris: readonly string[]): Promise<number> {
      return transaction(async () => {
        let dropped = 0;
        for (const uri of actorUris) {
          const them = await actors.findRemoteByUri(uri);
          if (!them) continue;
          dropped += await repo.removeFollowsBy(them.id);
        }
        return dropped;
      });
    },
  };
}
