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
    servers.record(actorUri, await lookupServerSoftware(ctx.federation, username, actorUri));
  }

  on('GET /users/search', (c, { query }) => ({
    users: service.search(currentUser(c), query.q),
  }));

  on('GET /users/following', (c) => {
    const user = currentUser(c);
    return {
      following: service.following(user).map(presentFollowing),
      remote: remote
        .following(user)
        .map((item) => presentRemoteFollowing(item, servers.isVault(item.uri))),
    };
  });

  on('POST /users/lookup', async (c, { body }) => {
    const user = currentUser(c);
    remote.requireFederated(user);
    const actor = await lookupRemoteActor(ctx.federation, user.username, body.query);
    // An actor already known here is refreshed by the lookup; a new one is not stored.
    if (remote.knownActor(actor.uri)) remote.rememberActor(actor);
    // What its server runs is asked at each lookup: the dialog says whether it is a vault.
    await learnServer(user.username, actor.uri);
    const follow = remote.followOfUri(user, actor.uri);
    return { actor: presentRemoteActor(actor, follow, servers.isVault(actor.uri)) };
  });

  on('POST /users/remote-follows', async (c, { body }) => {
    const user = currentUser(c);
    remote.requireFederated(user);
    // A stored actor fetched within a day is used as is; otherwise it is looked up again.
    const actor =
      remote.freshActor(body.actorUri) ??
      (await lookupRemoteActor(ctx.federation, user.username, body.actorUri));
    const follow = remote.follow(user, actor);
    if (!servers.isKnown(actor.uri)) await learnServer(user.username, actor.uri);
    return { follow: presentRemoteFollowing(follow, servers.isVault(actor.uri)) };
  });

  on('DELETE /users/remote-follows/{actorId}', (c) => {
    remote.unfollow(currentUser(c), idParam(c, 'actorId', 'Account'));
  });

  on('DELETE /users/followers/{actorId}', (c) => {
    ctx.followRequests.removeFollower(currentUser(c), idParam(c, 'actorId', 'Account'));
  });

  on('GET /users/followers', (c) => ({
    followers: service.followers(currentUser(c)).map(presentFollower),
  }));

  // The body is none, or an empty JSON object (the table's schema checks it).
  on('POST /users/{id}/follow', (c) => ({
    follow: presentFollowing(service.follow(currentUser(c), idParam(c, 'id', 'User'))),
  }));

  on('DELETE /users/{id}/follow', (c) => {
    service.unfollow(currentUser(c), idParam(c, 'id', 'User'));
  });

  return router;
}
