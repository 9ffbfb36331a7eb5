import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { unauthorized } from '../domain-error.ts';
import { readJson } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AppEnv } from '../http/env.ts';
import {
  clearPendingCookie,
  pendingCookiePolicy,
  readPendingCookie,
  setPendingCookie,
} from '../http/pending-login.ts';
import {
  clearSessionCookie,
  currentUser,
  requireUser,
  type CookiePolicy,
} from '../http/session.ts';
import { startSession } from '../http/sign-in.ts';
import { presentCredential } from '../auth/webauthn.ts';
import { presentUser, presentUserJson } from '../users/present.ts';

const loginBody = z.object({
  username: z.string({ error: 'Username is required' }).max(100, 'Username is too long'),
  password: z.string({ error: 'Password is required' }).max(1024, 'Password is too long'),
});

const reauthenticateBody = z.object({
  password: z
    .string({ error: 'Enter your current password' })
    .min(1, 'Enter your current password')
    .max(1024, 'Password is too long'),
});

const totpLoginBody = z.object({
  token: z
    .string({ error: 'Enter the code from your authenticator app' })
    .max(64, 'The code is too long'),
  backup: z.boolean({ error: 'backup must be true or false' }).optional().default(false),
});

/** Sign-in (password, then the second factor if one is on), sign-out and the current user. */
export function authRoutes(ctx: AppContext, cookie: CookiePolicy): Hono<AppEnv> {
  const auth = new Hono<AppEnv>();
  const pendingCookie = pendingCookiePolicy(ctx.config.origin);
  const sessionDeps = {
    sessions: ctx.sessions,
    cookie,
    absoluteMs: ctx.config.sessionAbsoluteMs,
  };

  auth.get('/me', (c) => {
    const user = c.get('user');
    if (!user) throw unauthorized('Not signed in');
    // { user } (the contract's User), the user serialized once per change of their row.
    return c.body(`{"user":${presentUserJson(user, ctx.config.origin)}}`, 200, {
      'Content-Type': 'application/json',
    });
  });

  auth.post('/login', async (c) => {
    const { username, password } = await readJson(c, loginBody);
    const address = clientAddress(c, ctx.config.trustProxy);
    const outcome = await ctx.login.withPassword(username, password, address);
    // A new sign-in replaces whatever pending login this browser had.
    ctx.pendingLogins.end(readPendingCookie(c, pendingCookie));
    if (outcome.kind === 'signedIn') {
      clearPendingCookie(c, pendingCookie);
      startSession(c, sessionDeps, outcome.user.id, address);
      const credentials = ctx.webauthn.list(outcome.user.id).map(presentCredential);
      return c.json({ user: presentUser(outcome.user, ctx.config.origin), credentials });
    }
    // A second factor is on: no session yet, only a pending login tied to this browser.
    // Whatever session the browser had ends now (a new sign-in has begun).
    const previous = c.get('session');
    if (previous) {
      ctx.sessions.end(previous.idHash);
      clearSessionCookie(c, cookie);
    }
    setPendingCookie(c, pendingCookie, outcome.pendingToken);
    if (outcome.kind === 'requiresWebAuthn') {
      return c.json({
        requiresWebAuthn: true,
        options: outcome.options,
        credentials: outcome.credentials.map(presentCredential),
      });
    }
    return c.json({ requiresTotp: true, user: presentUser(outcome.user, ctx.config.origin) });
  });

  /** The second step with the authenticator app: a code, or a backup code. */
  auth.post('/login/totp', async (c) => {
    const { token, backup } = await readJson(c, totpLoginBody);
    const address = clientAddress(c, ctx.config.trustProxy);
    let user;
    try {
      user = ctx.login.withTotp(readPendingCookie(c, pendingCookie), token.trim(), backup, address);
    } catch (error) {
      // An ended pending login takes its cookie with it.
      if (!ctx.pendingLogins.resolve(readPendingCookie(c, pendingCookie))) {
        clearPendingCookie(c, pendingCookie);
      }
      throw error;
    }
    clearPendingCookie(c, pendingCookie);
    startSession(c, sessionDeps, user.id, address);
    return c.json({ user: presentUser(user, ctx.config.origin), credentials: [] });
  });

  /**
   * Enters the password again: for the next five minutes this session may change the second
   * factor without sending it. A wrong password is a 403 `{ message, reauthenticate: true }`.
   */
  auth.post('/reauthenticate', requireUser, async (c) => {
    const { password } = await readJson(c, reauthenticateBody);
    const until = await ctx.reauth.reauthenticate(
      c.get('session')!,
      currentUser(c),
      password,
      clientAddress(c, ctx.config.trustProxy),
    );
    return c.json({ reauthenticatedUntil: until.toISOString() });
  });

  auth.post('/logout', (c) => {
    const session = c.get('session');
    if (session) ctx.sessions.end(session.idHash);
    clearSessionCookie(c, cookie);
    const pendingToken = readPendingCookie(c, pendingCookie);
    if (pendingToken !== undefined) {
      ctx.pendingLogins.end(pendingToken);
      clearPendingCookie(c, pendingCookie);
    }
    return c.body(null, 204);
  });

  return auth;
}
