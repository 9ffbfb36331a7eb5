import { randomUUID } from 'node:crypto';
import type { ActorRepository, RemoteActorData } from '../actors/repository.ts';
import type { Transaction } from '../db/transaction.ts';
import { conflict, forbidden, notFound } from '../domain-error.ts';
import type { FeedRepository } from '../feed/repository.ts';
import { logger } from '../logger.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { UserRepository } from '../users/repository.ts';
import type { RemoteFollowing } from './follow-rows.ts';
import type { FollowRepository } from './repository.ts';
import { CANNOT_FOLLOW } from './service.ts';

export interface RemoteFollowViewer {
  id: number;
}

/**
 * What a received Follow did: accepted now or before (send the Accept), a request waiting for
 * the user (`requested`), refused because the user blocked the actor (send a Reject), or
 * ignored.
 */
export type ReceivedFollow =
  { accepted: true; followUri: string } | { accepted: false; requested?: boolean; rejected?: true };

export const NOT_FEDERATED =
  'Turn on federation (ActivityPub) in your profile to follow fediverse accounts.';

/**
 * Follows between local users and remote ActivityPub actors, both ways. Writes go through the
 * follow and actor repositories in one transaction with their outbox record; federation
 * (federation/follow-handoff.ts) turns the records into Follow, Undo(Follow) and
 * Reject(Follow) deliveries once they commit. What arrives from other servers (Follow, Undo,
 * Accept, Reject, Delete, Update of an actor) comes here from the inbox listeners as plain
 * data, already verified (the signer is the activity's actor). Every received change is
 * idempotent: the same activity twice changes nothing more.
 */
export function createRemoteFollowService(deps: {
  repo: FollowRepository;
  actors: ActorRepository;
  users: UserRepository;
  feed: FeedRepository;
  outbox: Outbox;
  transaction: Transaction;
  origin: string;
  /**
   * Entries received from remote actors (src/remote-entries/): those of an actor nobody here
   * follows any more are removed with their photo copies, and all of a deleted actor's.
   */
  entries?: { forgetActor(actorUri: string, options?: { always?: boolean }): Promise<number> };
  /**
   * Blocks (src/blocks/): a blocked account can neither be followed nor follow, and neither can
   * an account whose block of the user was received (its Follow is ignored, not rejected).
   */
  blocks?: {
    isBlockedEitherWay(userId: number, actorId: number): boolean;
    isBlockedByRemote(userId: number, actorId: number): boolean;
  };
  now?: () => number;
}) {
  const { repo, actors, users, feed, outbox, transaction, origin } = deps;
  const blocked = (userId: number, actorId: number) =>
    deps.blocks?.isBlockedEitherWay(userId, actorId) ?? false;

  /** After a follow of `actorUri` ended: its entries go if nobody here follows it now. */
  function forgetEntries(actorUri: string | null | undefined, always = false): Promise<void> {
    if (!actorUri || !deps.entries) return Promise.resolve();
    return deps.entries.forgetActor(actorUri, { always }).then(
      () => undefined,
      (error: unknown) => {
        logger.warn('Could not remove the entries of {actor}: {error}', {
          actor: actorUri,
          error: String(error).slice(0, 300),
        });
      },
    );
  }
  const now = deps.now ?? Date.now;

  function federatedUser(userId: number) {
    const user = users.findById(userId);
    if (!user) throw notFound('User not found');
    if (!user.activityPubEnabled) throw conflict(NOT_FEDERATED);
    return user;
  }

  function followingOf(userId: number, actorId: number): RemoteFollowing | undefined {
    return repo.remoteFollowing(userId).find((item) => item.actorId === actorId);
  }

  const service = {
    /** Keeps (or refreshes) a remote actor's document; returns its actor id. */
    rememberActor(data: RemoteActorData): number {
      return actors.saveRemote(data, now());
    },

    /** The stored remote actor `uri`, if any. */
    knownActor(uri: string) {
      return actors.findRemoteByUri(uri);
    },

    isStale(uri: string): boolean {
      const actor = actors.findRemoteByUri(uri);
      return !actor || actors.isStale(actor, now());
    },

    /**
     * Asks to follow a remote actor: the follow is PENDING until its Accept arrives. The Follow
     * (id `{actor}#follows/{uuid}`) is recorded in the outbox in the same transaction.
     */
    follow(viewer: RemoteFollowViewer, actor: RemoteActorData): RemoteFollowing {
      const user = federatedUser(viewer.id);
      const me = actors.localActorId(user.id);
      return transaction(() => {
        const them = actors.saveRemote(actor, now());
        if (blocked(user.id, them)) throw forbidden(CANNOT_FOLLOW);
        if (repo.find(me, them)) throw conflict(`You already follow ${actor.handle}.`);
        const at = now();
        const followUri = `${origin}/users/${user.username}#follows/${randomUUID()}`;
        repo.insertRemote(me, them, 'PENDING', followUri, at);
        const payload = { follow: followUri };
        outbox.record({ actorId: me, type: 'Follow', objectActorId: them, payload, createdAt: at });
        return followingOf(user.id, them)!;
      });
    },

    /** Follows a remote actor whose row is stored ('Follow back') unless the caller does. */
    followBack(viewer: RemoteFollowViewer, actorId: number): void {
      const actor = actors.findById(actorId);
      if (!actor || actor.kind !== 'remote' || !actor.uri || !actor.inboxUrl) {
        throw notFound('This account is no longer known here.');
      }
      if (repo.find(actors.localActorId(viewer.id), actorId)) return;
      service.follow(viewer, {
        uri: actor.uri,
        inboxUrl: actor.inboxUrl,
        sharedInboxUrl: actor.sharedInboxUrl,
        handle: actor.handle ?? actor.uri,
        displayName: actor.displayName,
        summary: actor.summary,
        avatarUrl: actor.avatarUrl,
      });
    },

    /** Stops following (or asking to follow) a remote actor; an Undo(Follow) goes out. */
    unfollow(viewer: RemoteFollowViewer, actorId: number): void {
      const me = actors.existingLocalActorId(viewer.id);
      transaction(() => {
        const existing = me === undefined ? undefined : repo.find(me, actorId);
        if (!existing || actors.userIdOf(actorId) !== null || !existing.activityUri) {
          throw notFound('You are not following this account.');
        }
        repo.removeById(existing.id);
        feed.removeActor(viewer.id, actorId);
        const payload = { follow: existing.activityUri };
        outbox.record({
          actorId: existing.followerId,
          type: 'Undo',
          objectActorId: actorId,
          payload,
          createdAt: now(),
        });
      });
      void forgetEntries(actors.findById(actorId)?.uri);
    },

    /** Removes a remote follower of the caller; a Reject(Follow) tells its server. */
    removeFollower(viewer: RemoteFollowViewer, actorId: number): void {
      const me = actors.existingLocalActorId(viewer.id);
      transaction(() => {
        const existing = me === undefined ? undefined : repo.find(actorId, me);
        if (!existing || actors.userIdOf(actorId) !== null || !existing.activityUri) {
          throw notFound('This account does not follow you.');
        }
        repo.removeById(existing.id);
        const payload = { follow: existing.activityUri };
        outbox.record({
          actorId: existing.followedId,
          type: 'Reject',
          objectActorId: actorId,
          payload,
          createdAt: now(),
        });
      });
    },

    /**
     * A remote actor follows the local user `username`. Accepted at once when the user is
     * federated (the caller then sends the Accept, again for a repeated Follow, as Mastodon
     * does); refused (the caller sends a Reject) when the user blocked the actor; ignored
     * (logged) when the actor blocked the user, and otherwise. The first time, the user gets a FOLLOW_INVITE notification.
     * A user who approves followers gets a FOLLOW_REQUEST instead, and the follow stays
     * PENDING (no Accept now: src/follows/requests.ts sends it once they accept); a repeated
     * Follow of a pending request only takes its new id.
     */
    receiveFollow(username: string, actor: RemoteActorData, followUri: string): ReceivedFollow {
      const user = users.findFederatedByUsername(username);
      if (!user) return { accepted: false };
      const me = actors.localActorId(user.id);
      return transaction(() => {
        const them = actors.saveRemote(actor, now());
        if (deps.blocks?.isBlockedByRemote(user.id, them)) {
          logger.info('A Follow of {user} from {actor}, who blocked them, was ignored', {
            user: user.username,
            actor: actor.uri,
          });
          return { accepted: false };
        }
        if (blocked(user.id, them)) return { accepted: false, rejected: true };
        const existing = repo.find(them, me);
        if (existing) {
          if (existing.activityUri !== followUri) repo.setActivityUri(existing.id, followUri);
          if (existing.state !== 'ACCEPTED') {
            if (user.approveFollowers) return { accepted: false, requested: true };
            repo.setState(existing.id, 'ACCEPTED');
          }
          return { accepted: true, followUri };
        }
        const at = now();
        const request = user.approveFollowers;
        repo.insertRemote(them, me, request ? 'PENDING' : 'ACCEPTED', followUri, at);
        const payload = { follow: followUri, ...(request && { request: true }) };
        outbox.record({ actorId: them, type: 'Follow', objectActorId: me, payload, createdAt: at });
        return request ? { accepted: false, requested: true } : { accepted: true, followUri };
      });
    },

    /**
     * A remote actor undoes its Follow (`followUri`, or whatever follow it has of `username`
     * when the Undo names no id). Its unanswered FOLLOW_INVITE is withdrawn.
     */
    receiveUndoFollow(actorUri: string, followUri: string | null, username: string | null): void {
      const them = actors.findRemoteByUri(actorUri);
      if (!them) return;
      transaction(() => {
        let existing = followUri ? repo.findByActivityUri(followUri) : undefined;
        if (!existing && username) {
          const user = users.findFederatedByUsername(username);
          existing = user ? repo.find(them.id, actors.localActorId(user.id)) : undefined;
        }
        if (!existing || existing.followerId !== them.id) return;
        repo.removeById(existing.id);
        outbox.record({
          actorId: them.id,
          type: 'Undo',
          objectActorId: existing.followedId,
          payload: { follow: existing.activityUri ?? '' },
          createdAt: now(),
        });
      });
    },

    /** The remote actor accepted our Follow `followUri`: the follow is ACCEPTED. */
    receiveAccept(actorUri: string, followUri: string): boolean {
      const follow = repo.findByActivityUri(followUri);
      const them = actors.findRemoteByUri(actorUri);
      if (!follow || !them || follow.followedId !== them.id) return false;
      if (follow.state !== 'ACCEPTED') repo.setState(follow.id, 'ACCEPTED');
      return true;
    },

    /** The remote actor refused (or ended) our follow `followUri`: it is removed. */
    receiveReject(actorUri: string, followUri: string): boolean {
      const follow = repo.findByActivityUri(followUri);
      const them = actors.findRemoteByUri(actorUri);
      if (!follow || !them || follow.followedId !== them.id) return false;
      transaction(() => {
        repo.removeById(follow.id);
        const userId = actors.userIdOf(follow.followerId);
        if (userId !== null) feed.removeActor(userId, them.id);
      });
      void forgetEntries(actorUri);
      return true;
    },

    /** Update(Person): a known remote actor's document is stored again; strangers are not kept. */
    receiveActorUpdate(actor: RemoteActorData): boolean {
      if (!actors.findRemoteByUri(actor.uri)) return false;
      actors.saveRemote(actor, now());
      return true;
    },

    /**
     * A remote actor is gone (Delete, or a 410 key): forgotten with everything it had here, its
     * entries' photo copies first (the rows would go by cascade, the files not).
     */
    async actorGone(actorUri: string): Promise<boolean> {
      if (!actors.findRemoteByUri(actorUri)) return false;
      await forgetEntries(actorUri, true);
      return actors.removeRemote(actorUri);
    },

    /**
     * Deliveries to these remote actors failed for good (their inbox answers 404 or 410): they
     * no longer follow anyone here.
     */
    deliveryGone(actorUris: readonly string[]): number {
      let dropped = 0;
      transaction(() => {
        for (const uri of actorUris) {
          const them = actors.findRemoteByUri(uri);
          if (!them) continue;
          dropped += repo.removeFollowsBy(them.id);
        }
      });
      return dropped;
    },

    /** The remote actors the caller follows or asked to follow. */
    following(viewer: RemoteFollowViewer): RemoteFollowing[] {
      return repo.remoteFollowing(viewer.id);
    },

    /** Refuses (409) a caller whose activityPubEnabled is off: their follows could not work. */
    requireFederated(viewer: RemoteFollowViewer): void {
      federatedUser(viewer.id);
    },

    /** The stored actor `uri` as lookups return it, if fetched less than a day ago. */
    freshActor(uri: string): RemoteActorData | undefined {
      const actor = actors.findRemoteByUri(uri);
      if (!actor || actors.isStale(actor, now()) || !actor.inboxUrl || !actor.uri) return undefined;
      return {
        uri: actor.uri,
        inboxUrl: actor.inboxUrl,
        sharedInboxUrl: actor.sharedInboxUrl,
        handle: actor.handle ?? actor.uri,
        displayName: actor.displayName,
        summary: actor.summary,
        avatarUrl: actor.avatarUrl,
      };
    },

    /** The caller's follow of the remote actor `uri`, if any. */
    followOfUri(viewer: RemoteFollowViewer, uri: string): RemoteFollowing | undefined {
      return repo.remoteFollowing(viewer.id).find((item) => item.uri === uri);
    },

    /** The follow of `actorId` by the caller, if any (to show 'Following' or 'Pending'). */
    followOf(viewer: RemoteFollowViewer, actorId: number): RemoteFollowing | undefined {
      return followingOf(viewer.id, actorId);
    },
  };
  return service;
}

export type RemoteFollowService = ReturnType<typeof createRemoteFollowService>;
