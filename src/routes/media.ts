import fs from 'node:fs';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { AppContext } from '../context.ts';
import { notFound } from '../domain-error.ts';
import { bearerSecret, tokenSignIn } from '../http/bearer.ts';
import type { AppEnv } from '../http/env.ts';
import { cookiePolicy, loadSession, requireUser } from '../http/session.ts';

/**
 * /media/…: stored images. Names are random and content is always JPEG (re-encoded at upload),
 * served with nosniff and a sandboxing CSP. Who may see which image is the visibility policy's
 * answer (src/visibility/policy.ts): avatars are public (actors' icons, which other fediverse
 * servers fetch); a bottle photo is for whoever may see its entry, and never for anonymous
 * requests (401 before the policy is asked; 404 when it says no, as for a missing file).
 * A bottle photo answers a signed-in session or an access token of either scope, which acts
 * as its user does on /api (src/http/bearer.ts): a tool exporting entries fetches their photos.
 * The servers a federated entry was sent to fetch its photo by a capability URL, /media/f/….
 */
export function mediaRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const session = loadSession(ctx.sessions, ctx.users, cookiePolicy(ctx.config.origin));
  const signInByToken = tokenSignIn(ctx.tokens, ctx.tokenRateLimit);
  const sessionOrToken: MiddlewareHandler<AppEnv> = async (c, next) => {
    const secret = bearerSecret(c.req.header('authorization'));
    if (secret === undefined) return session(c, next);
    await signInByToken(c, secret);
    return next();
  };

  async function serve(c: Context<AppEnv>, storedPath: string, cacheControl: string) {
    if (!(await ctx.visibility.canSeePhoto(c.get('user') ?? null, storedPath))) {
      throw notFound('Image not found');
    }
    return send(c, storedPath, cacheControl);
  }

  async function send(c: Context<AppEnv>, storedPath: string, cacheControl: string) {
    const file = ctx.media.locate(storedPath);
    if (!file) throw notFound('Image not found');
    const body = await fs.promises.readFile(file).catch(() => {
      throw notFound('Image not found');
    });
    return c.body(body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'image/jpeg',
      'Cache-Control': cacheControl,
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
  }

  // A federated entry's photo by its capability URL (src/media/capabilities.ts): no session,
  // the token is the permission. Kept briefly in caches: the URL stops answering when the entry
  // is deleted or its photo replaced.
  routes.get('/f/:name', async (c) => {
    const storedPath = await ctx.photoCapabilities.photoFor(c.req.param('name'));
    if (!storedPath) throw notFound('Image not found');
    return send(c, storedPath, 'public, max-age=300');
  });
  routes.get('/avatars/:name', (c) =>
    serve(c, `media/avatars/${c.req.param('name')}`, 'public, max-age=31536000, immutable'),
  );
  routes.get('/:name', sessionOrToken, requireUser, (c) =>
    serve(c, `media/${c.req.param('name')}`, 'private, max-age=31536000, immutable'),
  );
  return routes;
}
