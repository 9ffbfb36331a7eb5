import { Hono } from 'hono';
import type { AppContext } from './context.ts';
import { bodyLimit } from './http/body-limit.ts';
import { handleError } from './http/errors.ts';
import type { AppEnv } from './http/env.ts';
import { securityHeaders } from './http/security-headers.ts';
import { federationMiddleware } from './http/federation.ts';
import { apiRoutes } from './routes/index.ts';
import { staticClient } from './http/static-client.ts';
import { mediaRoutes } from './routes/media.ts';

/**
 * The vault's HTTP surface, in the order a request meets it (the paths are in one table,
 * src/http/server-paths.ts):
 *  1. security headers on every response (HSTS too when the origin is https);
 *  2. request bodies bounded before anything reads them: 16 MB for photo uploads, 1 MB else;
 *  3. ActivityPub (WebFinger, NodeInfo, actors, inboxes, collections) through Fedify, which
 *     loads on the first such request; nothing else reaches it;
 *  4. the JSON API under /api (see src/routes/index.ts for its table of contents);
 *  5. uploaded images under /media;
 *  6. the built React client, with index.html for every other page.
 */
export function createApp(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound((c) => c.json({ message: 'Not found.' }, 404));
  app.use(securityHeaders(ctx.config.origin));
  app.use(bodyLimit());
  app.use(federationMiddleware(ctx.federation));
  app.route('/api', apiRoutes(ctx));
  app.route('/media', mediaRoutes(ctx));
  app.use(staticClient(ctx.config.webDistDir));
  return app;
}
