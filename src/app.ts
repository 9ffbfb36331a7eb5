import { Hono } from 'hono';
import type { AppContext } from './context.ts';
import { notFound } from './domain-error.ts';
import { handleError } from './http/errors.ts';
import { serverPathOf } from './http/server-paths.ts';
import type { AppEnv } from './http/env.ts';
import { frontDoor } from './http/front-door.ts';
import { apiRoutes } from './routes/index.ts';
import { staticClient } from './http/static-client.ts';
import { mediaRoutes } from './routes/media.ts';
import { vaultContextRoutes } from './routes/vault-context.ts';

/**
 * The vault's HTTP surface, in the order a request meets it (the paths are in one table,
 * src/http/server-paths.ts):
 *  1. the front door (src/http/front-door.ts), one middleware for every request: security
 *     headers (HSTS too when the origin is https); request bodies bounded before anything reads
 *     them (src/http/body-limit.ts); for /api, no caching, the cross-site check and
 *     the signed-in user; for the rest, ActivityPub (WebFinger, NodeInfo, actors, inboxes,
 *     collections) handed to Fedify, which loads on the first such request;
 *  2. the JSON API under /api (see src/routes/index.ts for its table of contents);
 *  3. uploaded images under /media; the vault's JSON-LD context under /ns;
 *  4. the built React client, with index.html for every other page (the not-found handler).
 */
export function createApp(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const client = staticClient(ctx.config.webDistDir, {
    serveSourceMaps: ctx.config.serveSourceMaps,
  });
  app.onError(handleError);
  app.use(frontDoor(ctx));
  app.route('/api', apiRoutes(ctx));
  app.route('/media', mediaRoutes(ctx));
  app.route('/ns', vaultContextRoutes(ctx.config.origin));
  // What no route answers: a JSON 404 under the server's own paths, else the client. A handler
  // here rather than catch-all routes, which every request would otherwise collect and walk.
  app.notFound((c) => {
    const path = c.req.path;
    if (path === '/api' || path.startsWith('/api/')) {
      throw notFound(`No API route for ${c.req.method} ${path.slice(0, 100)}`);
    }
    if (serverPathOf(path)?.serves === 'server') throw notFound('Not found.');
    return client(c);
  });
  return app;
}
