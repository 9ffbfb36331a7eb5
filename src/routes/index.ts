import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { notFound } from '../domain-error.ts';
import { csrfProtection } from '../http/csrf.ts';
import { presetHeader } from '../http/node-fast-path.ts';
import type { AppEnv } from '../http/env.ts';
import { cookiePolicy, loadSession } from '../http/session.ts';
import { authRoutes } from './auth.ts';
import { followRoutes } from './follows.ts';
import { notificationRoutes } from './notifications.ts';
import { activityRoutes } from './activity.ts';
import { userRoutes } from './users.ts';
import { profileRoutes } from './profile.ts';
import { sessionRoutes } from './sessions.ts';
import { beverageRoutes } from './beverages.ts';
import { shareRoutes } from './shares.ts';
import { webauthnRoutes } from './webauthn.ts';
import { totpRoutes } from './totp.ts';

/** The JSON API, mounted at /api (request bodies are bounded before it: src/http/body-limit.ts). */
export function apiRoutes(ctx: AppContext): Hono<AppEnv> {
  const cookie = cookiePolicy(ctx.config.origin);
  const api = new Hono<AppEnv>();
  api.use(async (c, next) => {
    presetHeader(c, 'Cache-Control', 'no-store');
    await next();
  });
  api.use(csrfProtection(ctx.config.origin));
  api.use(loadSession(ctx.sessions, ctx.users, cookie));
  api.route('/auth', authRoutes(ctx, cookie));
  api.route('/auth/sessions', sessionRoutes(ctx));
  // Before the other /users routers, so that no `/:id` route of theirs takes these paths.
  api.route('/users', followRoutes(ctx));
  api.route('/users', profileRoutes(ctx));
  api.route('/users', userRoutes(ctx));
  api.route('/beverages', beverageRoutes(ctx));
  api.route('/beverages', shareRoutes(ctx));
  api.route('/webauthn', webauthnRoutes(ctx, cookie));
  api.route('/totp', totpRoutes(ctx));
  api.route('/notifications', notificationRoutes(ctx));
  api.route('/activity', activityRoutes(ctx));

  api.all('*', (c) => {
    throw notFound(`No API route for ${c.req.method} ${c.req.path.slice(0, 100)}`);
  });
  return api;
}
