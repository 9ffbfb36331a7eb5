import type { Hono } from 'hono';
import { lookupRemoteActor } from '../../federation/lookup.ts';
import { lookupServerSoftware } from '../../federation/server-software.ts';
import type { AppContext } from '../context.ts';
import {
  presentFollower,
  presentFollowing,
  presentRemoteActor,
  presentRemoteFollowing,
} from '../follows/present.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/**
 * /api/users/search, /following, /followers and /{id}/follow; fediverse accounts: /lookup
 * (find one by handle or URL), /remote-follows (follow, unfollow); /followers/{actorId}
 * removes a follower, local or remote. Mounted before the other /users
 * routers, so that no `/:id` route of theirs takes these paths.
 */
export function followRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/users');
  const service = ctx.follows;
  const remote = ctx.remoteFollows;
  const servers = ctx.serverSoftware;

  /** Asks the account's server what it runs (its NodeInfo) and keeps the answer. */
  async function learnServer(username: string, actorUri: string): Promise<void> {
    const software = await lookupServerSoftware(ctx.federation, username, actorUri);
    await servers.record(actorUri, software);
  }

  on('GET /users/search', async (c, { query }) => ({
    users: await service.search(currentUser(c), query.q),
  }));

  on('GET /users/following', async (c) => {
    const user = currentUser(c);
    const following = await service.following(user);
    const remoteFollowing = await remote.following(user);
    return {
      following: following.map(presentFollowing),
      remote: await Promise.all(
        remoteFollowing.map(async (item) =>
          presentRemoteFollowing(item, await servers.isVault(item.uri)),
        ),
      ),
    };
  });

  on('POST /users/lookup', async (c, { body }) => {
    const user = currentUser(c);
    await remote.requireFederated(user);
    const actor = await lookupRemoteActor(ctx.federation, user.username, body.query);
    // An actor already known here is refreshed by the lookup; a new one is not stored.
    if (await remote.knownActor(actor.uri)) await remote.rememberActor(actor);
    // What its server runs is asked at each lookup: the dialog says whether it is a vault.
    await learnServer(user.username, actor.uri);
    const follow = await remote.followOfUri(user, actor.uri);
    return { actor: presentRemoteActor(actor, follow, await servers.isVault(actor.uri)) };
  });

  on('POST /users/remote-follows', async (c, { body }) => {
    const user = currentUser(c);
    await remote.requireFederated(user);
    // A stored actor fetched within a day is used as is; otherwise it is looked up again.
    const actor =
      (await remote.freshActor(body.actorUri)) ??
      (await lookupRemoteActor(ctx.federation, user.username, body.actorUri));
    const follow = await remote.follow(user, actor);
    if (!(await servers.isKnown(actor.uri))) await learnServer(user.username, actor.uri);
    return { follow: presentRemoteFollowing(follow, await servers.isVault(actor.uri)) };
  });

  on('DELETE /users/remote-follows/{actorId}', async (c) => {
    await remote.unfollow(currentUser(c), idParam(c, 'actorId', 'Account'));
  });

  on('DELETE /users/followers/{actorId}', async (c) => {
    await ctx.followRequests.removeFollower(currentUser(c), idParam(c, 'actorId', 'Account'));
  });

  on('GET /users/followers', async (c) => ({
    followers: (await service.followers(currentUser(c))).map(presentFollower),
  }));

  // The body is none, or an empty JSON object (the table's schema checks it).
  on('POST /users/{id}/follow', async (c) => ({
    follow: presentFollowing(await service.follow(currentUser(c), idParam(c, 'id', 'User'))),
  }));

  on('DELETE /users/{id}/follow', async (c) => {
    await service.unfollow(currentUser(c), idParam(c, 'id', 'User'));
  });

  return router;
}
