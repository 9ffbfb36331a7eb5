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
  const blocked = async (userId: number, actorId: number) =>
    (await deps.blocks?.isBlockedEitherWay(userId, actorId)) ?? false;

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

  async function federatedUser(userId: number) {
    const user = await users.findById(userId);
    if (!user) throw notFound('User not found');
    if (!user.activityPubEnabled) throw conflict(NOT_FEDERATED);
    return user;
  }

  async function followingOf(
    userId: number,
    actorId: number,
  ): Promise<RemoteFollowing | undefined> {
    return (await repo.remoteFollowing(userId)).find((item) => item.actorId === actorId);
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
    rememberActor(data: RemoteActorData): Promise<number> {
      return actors.saveRemote(data, now());
    },

    /** The stored remote actor `uri`, if any. */
    knownActor(uri: string) {
      return actors.findRemoteByUri(uri);
    },

    async isStale(uri: string): Promise<boolean> {
      const actor = await actors.findRemoteByUri(uri);
      return !actor || actors.isStale(actor, now());
    },

    /**
     * Asks to follow a remote actor: the follow is PENDING until its Accept arrives. The Follow
     * (id `{actor}#follows/{uuid}`) is recorded in the outbox in the same transaction.
     */
    async follow(viewer: RemoteFollowViewer, actor: RemoteActorData): Promise<RemoteFollowing> {
      const user = await federatedUser(viewer.id);
      const me = await actors.localActorId(user.id);
      return transaction(async () => {
        const them = await actors.saveRemote(actor, now());
        if (await blocked(user.id, them)) throw forbidden(CANNOT_FOLLOW);
        if (await repo.find(me, them)) throw conflict(`You already follow ${actor.handle}.`);
        const at = now();
        const followUri = `${origin}/users/${user.username}#follows/${randomUUID()}`;
        await repo.insertRemote(me, them, 'PENDING', followUri, at);
        const payload = { follow: followUri };
        await outbox.record({
          actorId: me,
          type: 'Follow',
          objectActorId: them,
          payload,
          createdAt: at,
        });
        return (await followingOf(user.id, them))!;
      });
    },

    /**
     * Follows a remote actor whose row is stored ('Follow back') unless the caller does: the
     * check and the follow in one transaction.
     */
    async followBack(viewer: RemoteFollowViewer, actorId: number): Promise<void> {
      await transaction(async () => {
        const actor = await actors.findById(actorId);
        if (!actor || actor.kind !== 'remote' || !actor.uri || !actor.inboxUrl) {
          throw notFound('This account is no longer known here.');
        }
        if (await repo.find(await actors.localActorId(viewer.id), actorId)) return;
        await service.follow(viewer, {
          uri: actor.uri,
          inboxUrl: actor.inboxUrl,
          sharedInboxUrl: actor.sharedInboxUrl,
          handle: actor.handle ?? actor.uri,
          displayName: actor.displayName,
          summary: actor.summary,
          avatarUrl: actor.avatarUrl,
        });
      });
    },

    /** Stops following (or asking to follow) a remote actor; an Undo(Follow) goes out. */
    async unfollow(viewer: RemoteFollowViewer, actorId: number): Promise<void> {
      const me = await actors.existingLocalActorId(viewer.id);
      await transaction(async () => {
        const existing = me === undefined ? undefined : await repo.find(me, actorId);
        if (!existing || (await actors.userIdOf(actorId)) !== null || !existing.activityUri) {
          throw notFound('You are not following this account.');
        }
        await repo.removeById(existing.id);
        await feed.removeActor(viewer.id, actorId);
        const payload = { follow: existing.activityUri };
        await outbox.record({
          actorId: existing.followerId,
          type: 'Undo',
          objectActorId: actorId,
          payload,
          createdAt: now(),
        });
      });
      // Awaited, so that the answer comes after the entries are gone (on PostgreSQL a read that
      // follows is not held back by the removal's transaction, as it is on SQLite).
      await forgetEntries((await actors.findById(actorId))?.uri);
    },

    /** Removes a remote follower of the caller; a Reject(Follow) tells its server. */
    async removeFollower(viewer: RemoteFollowViewer, actorId: number): Promise<void> {
      const me = await actors.existingLocalActorId(viewer.id);
      await transaction(async () => {
        const existing = me === undefined ? undefined : await repo.find(actorId, me);
        if (!existing || (await actors.userIdOf(actorId)) !== null || !existing.activityUri) {
          throw notFound('This account does not follow you.');
        }
        await repo.removeById(existing.id);
        const payload = { follow: existing.activityUri };
        await outbox.record({
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
    following(viewer: RemoteFollowViewer): Promise<RemoteFollowing[]> {
      return repo.remoteFollowing(viewer.id);
    },

    /** Refuses (409) a caller whose activityPubEnabled is off: their follows could not work. */
    async requireFederated(viewer: RemoteFollowViewer): Promise<void> {
      await federatedUser(viewer.id);
    },

    /** The stored actor `uri` as lookups return it, if fetched less than a day ago. */
    async freshActor(uri: string): Promise<RemoteActorData | undefined> {
      const actor = await actors.findRemoteByUri(uri);
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
    async followOfUri(
      viewer: RemoteFollowViewer,
      uri: string,
    ): Promise<RemoteFollowing | undefined> {
      return (await repo.remoteFollowing(viewer.id)).find((item) => item.uri === uri);
    },

    /** The follow of `actorId` by the caller, if any (to show 'Following' or 'Pending'). */
    followOf(viewer: RemoteFollowViewer, actorId: number): Promise<RemoteFollowing | undefined> {
      return followingOf(viewer.id, actorId);
    },
  };
  return service;
}

export type RemoteFollowService = ReturnType<typeof createRemoteFollowService>;
