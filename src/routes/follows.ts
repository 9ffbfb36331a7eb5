import { Hono } from 'hono';
import { z } from 'zod';
import { remoteFollowBodySchema, remoteLookupBodySchema } from '../../contract/follows.ts';
import { followBodySchema } from '../../contract/social.ts';
import { lookupRemoteActor } from '../../federation/lookup.ts';
import type { AppContext } from '../context.ts';
import {
  presentFollower,
  presentFollowing,
  presentRemoteActor,
  presentRemoteFollowing,
} from '../follows/present.ts';
import { idParam, parseWith, readJson, readOptionalJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';
import { SEARCH_TOO_SHORT } from '../follows/service.ts';

const searchQuery = z.object({
  q: z
    .string({ error: SEARCH_TOO_SHORT })
    .max(200, 'Search text must be at most 200 characters long'),
});

/**
 * /api/users/search, /following, /followers and /{id}/follow; fediverse accounts: /lookup
 * (find one by handle or URL), /remote-follows (follow, unfollow); /followers/{actorId}
 * removes a follower, local or remote. Mounted before the other /users
 * routers, so that no `/:id` route of theirs takes these paths.
 */
export function followRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const service = ctx.follows;
  const remote = ctx.remoteFollows;

  routes.get('/search', requireUser, (c) => {
    const { q } = parseWith(searchQuery, { q: c.req.query('q') });
    return c.json({ users: service.search(currentUser(c), q) });
  });

  routes.get('/following', requireUser, (c) => {
    const user = currentUser(c);
    return c.json({
      following: service.following(user).map(presentFollowing),
      remote: remote.following(user).map(presentRemoteFollowing),
    });
  });

  routes.post('/lookup', requireUser, async (c) => {
    const { query } = await readJson(c, remoteLookupBodySchema);
    const user = currentUser(c);
    remote.requireFederated(user);
    const actor = await lookupRemoteActor(ctx.federation, user.username, query);
    // An actor already known here is refreshed by the lookup; a new one is not stored.
    if (remote.knownActor(actor.uri)) remote.rememberActor(actor);
    return c.json({ actor: presentRemoteActor(actor, remote.followOfUri(user, actor.uri)) });
  });

  routes.post('/remote-follows', requireUser, async (c) => {
    const { actorUri } = await readJson(c, remoteFollowBodySchema);
    const user = currentUser(c);
    remote.requireFederated(user);
    // A stored actor fetched within a day is used as is; otherwise it is looked up again.
    const actor =
      remote.freshActor(actorUri) ??
      (await lookupRemoteActor(ctx.federation, user.username, actorUri));
    const follow = remote.follow(user, actor);
    return c.json({ follow: presentRemoteFollowing(follow) }, 201);
  });

  routes.delete('/remote-follows/:actorId', requireUser, (c) => {
    remote.unfollow(currentUser(c), idParam(c, 'actorId', 'Account'));
    return c.body(null, 204);
  });

  routes.delete('/followers/:actorId', requireUser, (c) => {
    ctx.followRequests.removeFollower(currentUser(c), idParam(c, 'actorId', 'Account'));
    return c.body(null, 204);
  });

  routes.get('/followers', requireUser, (c) =>
    c.json({ followers: service.followers(currentUser(c)).map(presentFollower) }),
  );

  routes.post('/:id/follow', requireUser, async (c) => {
    const id = idParam(c, 'id', 'User');
    await readOptionalJson(c, followBodySchema); // none, or an empty JSON object
    const follow = service.follow(currentUser(c), id);
    return c.json({ follow: presentFollowing(follow) }, 201);
  });

  routes.delete('/:id/follow', requireUser, (c) => {
    service.unfollow(currentUser(c), idParam(c, 'id', 'User'));
    return c.body(null, 204);
  });

  return routes;
}
