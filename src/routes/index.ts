import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppContext } from '../context.ts';
import { DomainError, notFound } from '../domain-error.ts';
import { csrfProtection } from '../http/csrf.ts';
import type { AppEnv } from '../http/env.ts';
import { cookiePolicy, loadSession } from '../http/session.ts';
import { authRoutes } from './auth.ts';
import { userRoutes } from './users.ts';
import { profileRoutes } from './profile.ts';
import { sessionRoutes } from './sessions.ts';
import { beverageRoutes } from './beverages.ts';
import { webauthnRoutes } from './webauthn.ts';
import { totpRoutes } from './totp.ts';

const JSON_BODY_LIMIT = 1024 * 1024;
/** Form uploads carry a photo of up to 15 MB (checked again by the media module). */
const FORM_BODY_LIMIT = 16 * 1024 * 1024;

/** The JSON API (SPEC section 7), mounted at /api. */
export function apiRoutes(ctx: AppContext): Hono<AppEnv> {
  const cookie = cookiePolicy(ctx.config.origin);
  const api = new Hono<AppEnv>();
  api.use(async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  api.use(csrfProtection(ctx.config.origin));
  api.use(loadSession(ctx.sessions, ctx.users, cookie));
  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new DomainError(413, 'The request body is too large');
      },
    });
  const jsonLimit = limit(JSON_BODY_LIMIT);
  const formLimit = limit(FORM_BODY_LIMIT);
  // Only a signed-in user may send a large (photo-carrying) form.
  api.use((c, next) =>
    c.get('user') && /^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')
      ? formLimit(c, next)
      : jsonLimit(c, next),
  );

  api.route('/auth', authRoutes(ctx, cookie));
  api.route('/auth/sessions', sessionRoutes(ctx));
  api.route('/users', profileRoutes(ctx));
  api.route('/users', userRoutes(ctx));
  api.route('/beverages', beverageRoutes(ctx));
  api.route('/webauthn', webauthnRoutes(ctx, cookie));
  api.route('/totp', totpRoutes(ctx));

  api.all('*', (c) => {
    throw notFound(`No API route for ${c.req.method} ${c.req.path}`);
  });
  return api;
}
