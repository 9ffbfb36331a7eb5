import type { MiddlewareHandler } from 'hono';
import type { AppContext } from '../context.ts';
import { bearerLoader, bearerSecret } from './bearer.ts';
import { boundRequestBody } from './body-limit.ts';
import { checkCrossSite } from './csrf.ts';
import type { AppEnv } from './env.ts';
import { federationMiddleware } from './federation.ts';
import { onNodeServer, presetHeader, requestHeader } from './node-fast-path.ts';
import { securityHeaderSets } from './security-headers.ts';
import { cookiePolicy, sessionLoader } from './session.ts';
import { whileAnswering } from '../outbox/answering.ts';

/**
 * The one middleware every request meets, in this order:
 *  1. security headers (src/http/security-headers.ts);
 *  2. the request body bounded before anything reads it (src/http/body-limit.ts);
 *  3. under /api: `Cache-Control: no-store`, then either the access token of
 *     `Authorization: Bearer …` (src/http/bearer.ts: no cookie, no session, no cross-site
 *     check, since no cookie is involved) or the cross-site check (src/http/csrf.ts) and the
 *     signed-in user loaded from the session cookie (src/http/session.ts);
 *  4. elsewhere: federation requests handed to Fedify (src/http/federation.ts).
 *
 * They are one middleware rather than six because each layer of Hono's middleware chain costs
 * an async call and its promise on every request: for a small API answer, the chain cost more
 * than the answer. Steps 1 and 2 are synchronous; step 3 awaits the reads of the token or of
 * the session and its user, unless both are memoized (src/db/read-cache.ts).
 */
export function frontDoor(ctx: AppContext): MiddlewareHandler<AppEnv> {
  const headers = securityHeaderSets(ctx.config.origin);
  const crossSite = checkCrossSite(ctx.config.origin);
  const loadSession = sessionLoader(ctx.sessions, ctx.users, cookiePolicy(ctx.config.origin));
  const loadToken = bearerLoader(ctx.tokens, ctx.tokenRateLimit);
  const federation = federationMiddleware(ctx.federation, {
    blocks: ctx.domainBlocks.matcher,
    limits: ctx.inboundLimits,
  });
  const enter: MiddlewareHandler<AppEnv> = (c, next) => {
    const path = c.req.path;
    const method = c.req.method;
    const api = path.startsWith('/api/');
    const set = api ? headers.api : headers.page;
    for (const [name, value] of set) presetHeader(c, name, value);
    if (method !== 'GET' && method !== 'HEAD') boundRequestBody(c, method, path);
    if (api) {
      presetHeader(c, 'Cache-Control', 'no-store');
      c.set('idempotency', ctx.idempotency);
      const secret = bearerSecret(requestHeader(c, 'authorization'));
      if (secret !== undefined) return loadToken(c, method, path, secret).then(() => next());
      crossSite(c, method);
      const loading = loadSession(c);
      return loading ? loading.then(() => next()) : next();
    }
    if (onNodeServer(c)) return federation(c, next);
    // In-process (app.request), a Response built outside the context (Fedify's) did not take
    // the preset headers: add them.
    return federation(c, next).then(() => {
      const built = c.res.headers;
      if (built.has('X-Content-Type-Options')) return;
      for (const [name, value] of set) if (!built.has(name)) built.set(name, value);
    });
  };
  // What a write records is delivered once its answer is ready (src/outbox/answering.ts); a
  // read records nothing, and pays nothing for it.
  return (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return enter(c, next);
    return whileAnswering(() => enter(c, next));
  };
}
