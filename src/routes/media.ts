import fs from 'node:fs';
import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { notFound } from '../domain-error.ts';
import type { AppEnv } from '../http/env.ts';
import { cookiePolicy, loadSession, requireUser } from '../http/session.ts';

/**
 * /media/<name>: stored images, for signed-in users only. Names are random, content is always
 * JPEG (re-encoded at upload), served with nosniff.
 */
export function mediaRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(loadSession(ctx.sessions, ctx.users, cookiePolicy(ctx.config.origin)));
  routes.use(requireUser);
  routes.get('/:name', async (c) => {
    const file = ctx.media.locate(c.req.param('name'));
    if (!file) throw notFound('Image not found');
    const body = await fs.promises.readFile(file);
    return c.body(body, 200, {
      'Content-Type': 'image/jpeg',
      'Cache-Control': 'private, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
  });
  return routes;
}
