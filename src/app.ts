import { Hono } from 'hono';
import type { AppContext } from './context.ts';
import { handleError } from './http/errors.ts';
import type { AppEnv } from './http/env.ts';
import { securityHeaders } from './http/security-headers.ts';
import { federationMiddleware } from './http/federation.ts';
import { apiRoutes } from './routes/index.ts';
import { staticClient } from './http/static-client.ts';
import { mediaRoutes } from './routes/media.ts';

/**
 * The vault's HTTP surface, in the order a request meets it:
 *  1. security headers on every response;
 *  2. ActivityPub (WebFinger, NodeInfo, actors, inboxes, collections) through Fedify;
 *  3. the JSON API under /api (see src/routes/index.ts for its table of contents);
 *  4. uploaded images under /media, for signed-in users;
 *  5. the built React client, with index.html for every other path.
 */
export function createApp(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use(securityHeaders());
  app.use(federationMiddleware(ctx.federation.federation));
  app.route('/api', apiRoutes(ctx));
  app.route('/media', mediaRoutes(ctx));
  app.use(staticClient(ctx.config.webDistDir));
  return app;
}
