import { Hono } from 'hono';
import { z } from 'zod';
import { followBodySchema } from '../../contract/social.ts';
import type { AppContext } from '../context.ts';
import { presentFollower, presentFollowing } from '../follows/present.ts';
import { idParam, parseWith, readOptionalJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';
import { SEARCH_TOO_SHORT } from '../follows/service.ts';

const searchQuery = z.object({
  q: z
    .string({ error: SEARCH_TOO_SHORT })
    .max(200, 'Search text must be at most 200 characters long'),
});

/**
 * /api/users/search, /following, /followers and /{id}/follow. Mounted before the other /users
 * routers, so that no `/:id` route of theirs takes these paths.
 */
export function followRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const service = ctx.follows;

  routes.get('/search', requireUser, (c) => {
    const { q } = parseWith(searchQuery, { q: c.req.query('q') });
    return c.json({ users: service.search(currentUser(c), q) });
  });

  routes.get('/following', requireUser, (c) =>
    c.json({ following: service.following(currentUser(c)).map(presentFollowing) }),
  );

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
