import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { unauthorized } from '../domain-error.ts';
import { readJson } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AppEnv } from '../http/env.ts';
import { clearSessionCookie, setSessionCookie, type CookiePolicy } from '../http/session.ts';
import { presentUser } from '../users/present.ts';

const loginBody = z.object({
  username: z.string({ error: 'Username is required' }).max(100, 'Username is too long'),
  password: z.string({ error: 'Password is required' }).max(1024, 'Password is too long'),
});

/** Sign-in, sign-out and the current user. */
export function authRoutes(ctx: AppContext, cookie: CookiePolicy): Hono<AppEnv> {
  const auth = new Hono<AppEnv>();

  auth.get('/me', (c) => {
    const user = c.get('user');
    if (!user) throw unauthorized('Not signed in');
    return c.json({ user: presentUser(user, ctx.config.origin) });
  });

  auth.post('/login', async (c) => {
    const { username, password } = await readJson(c, loginBody);
    const address = clientAddress(c, ctx.config.trustProxy);
    const outcome = await ctx.login.withPassword(username, password, address);
    // Rotation: whatever session the browser had ends; a fresh one starts.
    const previous = c.get('session');
    if (previous) ctx.sessions.end(previous.idHash);
    const { token } = ctx.sessions.start(outcome.user.id, {
      userAgent: c.req.header('user-agent') ?? '',
      ipAddress: address,
    });
    setSessionCookie(c, cookie, token, ctx.config.sessionAbsoluteMs);
    return c.json({ user: presentUser(outcome.user, ctx.config.origin), credentials: [] });
  });

  auth.post('/logout', (c) => {
    const session = c.get('session');
    if (session) ctx.sessions.end(session.idHash);
    clearSessionCookie(c, cookie);
    return c.body(null, 204);
  });

  return auth;
}
