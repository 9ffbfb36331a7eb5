import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { cookiePolicy } from '../http/session.ts';
import { authRoutes } from './auth.ts';
import { blockRoutes } from './blocks.ts';
import { followRoutes } from './follows.ts';
import { notificationRoutes } from './notifications.ts';
import { activityRoutes } from './activity.ts';
import { userRoutes } from './users.ts';
import { profileRoutes } from './profile.ts';
import { sessionRoutes } from './sessions.ts';
import { beverageRoutes } from './beverages.ts';
import { shareRoutes } from './shares.ts';
import { conversationRoutes } from './conversation.ts';
import { webauthnRoutes } from './webauthn.ts';
import { totpRoutes } from './totp.ts';
import { importRoutes } from './imports.ts';
import { backupRoutes } from './backups.ts';
import { domainBlockRoutes } from './domain-blocks.ts';
import { exportRoutes } from './export.ts';
import { statsRoutes } from './stats.ts';
import { cellarFigureRoutes } from './cellar-figures.ts';
import { placeRoutes } from './places.ts';
import { bottleRoutes } from './bottles.ts';
import { openApiRoutes } from './openapi.ts';
import { tokenRoutes } from './tokens.ts';

/** The JSON API, mounted at /api (what every request meets first: src/http/front-door.ts). */
export function apiRoutes(ctx: AppContext): Hono<AppEnv> {
  const cookie = cookiePolicy(ctx.config.origin);
  // No caching, the cross-site check and the signed-in user: src/http/front-door.ts.
  const api = new Hono<AppEnv>();
  api.route('/auth', authRoutes(ctx, cookie));
  api.route('/auth/sessions', sessionRoutes(ctx));
  // Before the other /users routers, so that no `/:id` route of theirs takes these paths.
  api.route('/users/blocks', blockRoutes(ctx));
  api.route('/users', followRoutes(ctx));
  api.route('/users', profileRoutes(ctx));
  api.route('/users', userRoutes(ctx));
  api.route('/beverages', beverageRoutes(ctx));
  api.route('/beverages', shareRoutes(ctx));
  api.route('/beverages', conversationRoutes(ctx, 'local'));
  api.route('/beverages', bottleRoutes(ctx));
  api.route('/webauthn', webauthnRoutes(ctx, cookie));
  api.route('/totp', totpRoutes(ctx));
  api.route('/notifications', notificationRoutes(ctx));
  api.route('/activity', activityRoutes(ctx));
  api.route('/activity/remote-entries', conversationRoutes(ctx, 'remote'));
  api.route('/imports', importRoutes(ctx));
  api.route('/backups', backupRoutes(ctx));
  api.route('/domain-blocks', domainBlockRoutes(ctx));
  api.route('/export', exportRoutes(ctx));
  api.route('/stats', statsRoutes(ctx));
  api.route('/cellar', cellarFigureRoutes(ctx));
  api.route('/cellar/places', placeRoutes(ctx));
  api.route('/openapi.json', openApiRoutes(ctx));
  api.route('/tokens', tokenRoutes(ctx));

  // An unknown API path is a JSON 404 from the app's not-found handler (src/app.ts).
  return api;
}
