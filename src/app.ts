import { Hono } from 'hono';
import type { AppContext } from './context.ts';
import { handleError } from './http/errors.ts';
import type { AppEnv } from './http/env.ts';
import { frontDoor } from './http/front-door.ts';
import { apiRoutes } from './routes/index.ts';
import { staticClient } from './http/static-client.ts';
import { mediaRoutes } from './routes/media.ts';

/**
 * The vault's HTTP surface, in the order a request meets it (the paths are in one table,
 * src/http/server-paths.ts):
 *  1. the front door (src/http/front-door.ts), one middleware for every request: security
 *     headers (HSTS too when the origin is https); request bodies bounded before anything reads
 *     them (16 MB for photo uploads, 1 MB else); for /api, no caching, the cross-site check and
 *     the signed-in user; for the rest, ActivityPub (WebFinger, NodeInfo, actors, inboxes,
 *     collections) handed to Fedify, which loads on the first such request;
 *  2. the JSON API under /api (see src/routes/index.ts for its table of contents);
 *  3. uploaded images under /media;
 *  4. the built React client, with index.html for every other page.
 */
export function createApp(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound((c) => c.json({ message: 'Not found.' }, 404));
  app.use(frontDoor(ctx));
  app.route('/api', apiRoutes(ctx));
  app.route('/media', mediaRoutes(ctx));
  app.use(staticClient(ctx.config.webDistDir));
  return app;
}
