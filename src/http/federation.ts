import type { Federation } from '@fedify/fedify';
import type { MiddlewareHandler } from 'hono';

const ACTIVITY_TYPES = ['application/activity+json', 'application/ld+json', 'application/jrd+json'];

/** Paths that only ever answer federation requests: never the client, whatever the Accept. */
const FEDERATION_ONLY =
  /^\/(?:\.well-known\/(?:webfinger|nodeinfo|host-meta)$|nodeinfo\/|inbox$|users\/[^/]+\/(?:inbox|outbox|followers|following)$)/;

function wantsActivityJson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return ACTIVITY_TYPES.some((t) => accept.includes(t));
}

/**
 * Hands ActivityPub requests to Fedify (the small equivalent of @fedify/hono). What Fedify does
 * not serve falls through to the API and the client; an ActivityPub request for something that
 * does not exist (or a user who has not enabled federation) gets a 404 rather than the client.
 */
export function federationMiddleware(federation: Federation<void>): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.path.startsWith('/api/')) return next();
    let passed = false;
    const response = await federation.fetch(c.req.raw, {
      contextData: undefined,
      onNotFound: async () => {
        if (wantsActivityJson(c.req.raw) || FEDERATION_ONLY.test(c.req.path)) {
          return Response.json({ message: 'Not found.' }, { status: 404 });
        }
        passed = true;
        await next();
        return c.res;
      },
      onNotAcceptable: async () => {
        if (FEDERATION_ONLY.test(c.req.path)) {
          return Response.json(
            { message: 'This address serves ActivityPub JSON only.' },
            { status: 406 },
          );
        }
        passed = true;
        await next();
        return c.res;
      },
    });
    if (!passed) c.res = response;
  };
}
