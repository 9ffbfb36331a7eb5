import { randomUUID } from 'node:crypto';
import type { RemoteActorData } from '../actors/repository.ts';
import { conflict, forbidden, notFound } from '../domain-error.ts';
import { logger } from '../logger.ts';
import type { RemoteFollowing } from './follow-rows.ts';
import { createReceivedFollows, type RemoteFollowStores } from './received.ts';
import { CANNOT_FOLLOW } from './service.ts';

export interface RemoteFollowViewer {
  id: number;
}

export const NOT_FEDERATED =
  'Turn on federation (ActivityPub) in your profile to follow fediverse accounts.';

/**
 * Follows between local users and remote ActivityPub actors, both ways. Writes go through the
 * follow and actor repositories in one transaction with their outbox record; federation
 * (federation/follow-handoff.ts) turns the records into Follow, Undo(Follow) and
 * Reject(Follow) deliveries once they commit. What arrives from other servers is handled by
 * src/follows/received.ts, part of this service.
 */
export function createRemoteFollowService(
  deps: RemoteFollowStores & {
    origin: string;
    /**
     * Entries received from remote actors (src/remote-entries/): those of an actor nobody here
     * follows any more are removed with their photo copies, and all of a deleted actor's.
     */
    entries?: { forgetActor(actorUri: string, options?: { always?: boolean }): Promise<number> };
    now?: () => number;
  },
) {
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

  // What other servers send about follows (the inbox's listeners).
  const received = createReceivedFollows({
    repo,
    actors,
    users,
    feed,
    outbox,
    transaction,
    blocks: deps.blocks,
    forgetEntries,
    now,
  });

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

    ...received,

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
