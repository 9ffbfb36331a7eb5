import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import {
  clearPendingCookie,
  pendingCookiePolicy,
  readPendingCookie,
  setPendingCookie,
} from '../http/pending-login.ts';
import { clearSessionCookie, currentUser, type CookiePolicy } from '../http/session.ts';
import { startSession } from '../http/sign-in.ts';
import { presentCredential } from '../auth/webauthn.ts';
import { presentUser, presentUserJson } from '../users/present.ts';

/**
 * Sign-in (password, then the second factor if one is on), sign-out and the current user
 * (contract/routes/sign-in.ts).
 */
export function authRoutes(ctx: AppContext, cookie: CookiePolicy): Hono<AppEnv> {
  const { router, on } = contractRouter('/auth');
  const pendingCookie = pendingCookiePolicy(ctx.config.origin);
  const sessionDeps = {
    sessions: ctx.sessions,
    cookie,
    absoluteMs: ctx.config.sessionAbsoluteMs,
  };

  on('GET /auth/me', (c) =>
    // { user } (the contract's User), the user serialized once per change of their row.
    c.body(`{"user":${presentUserJson(currentUser(c), ctx.config.origin)}}`, 200, {
      'Content-Type': 'application/json',
    }),
  );

  on('POST /auth/login', async (c, { body: { username, password } }) => {
    const address = clientAddress(c, ctx.config.trustProxy);
    const outcome = await ctx.login.withPassword(username, password, address);
    // A new sign-in replaces whatever pending login this browser had.
    await ctx.pendingLogins.end(readPendingCookie(c, pendingCookie));
    if (outcome.kind === 'signedIn') {
      clearPendingCookie(c, pendingCookie);
      await startSession(c, sessionDeps, outcome.user.id, address);
      const credentials = (await ctx.webauthn.list(outcome.user.id)).map(presentCredential);
      return { user: presentUser(outcome.user, ctx.config.origin), credentials };
    }
    // A second factor is on: no session yet, only a pending login tied to this browser.
    // Whatever session the browser had ends now (a new sign-in has begun).
    const previous = c.get('session');
    if (previous) {
      await ctx.sessions.end(previous.idHash);
      clearSessionCookie(c, cookie);
    }
    setPendingCookie(c, pendingCookie, outcome.pendingToken);
    if (outcome.kind === 'requiresWebAuthn') {
      return {
        requiresWebAuthn: true,
        options: outcome.options,
        credentials: outcome.credentials.map(presentCredential),
      };
    }
    return { requiresTotp: true, user: presentUser(outcome.user, ctx.config.origin) };
  });

  /** The second step with the authenticator app: a code, or a backup code. */
  on('POST /auth/login/totp', async (c, { body: { token, backup } }) => {
    const address = clientAddress(c, ctx.config.trustProxy);
    let user;
    try {
      user = await ctx.login.withTotp(
        readPendingCookie(c, pendingCookie),
        token.trim(),
        backup,
        address,
      );
    } catch (error) {
      // An ended pending login takes its cookie with it.
      if (!(await ctx.pendingLogins.resolve(readPendingCookie(c, pendingCookie)))) {
        clearPendingCookie(c, pendingCookie);
      }
      throw error;
    }
    clearPendingCookie(c, pendingCookie);
    await startSession(c, sessionDeps, user.id, address);
    return { user: presentUser(user, ctx.config.origin), credentials: [] };
  });

  /**
   * Enters the password again: for the next five minutes this session may change the second
   * factor without sending it. A wrong password is a 403 `{ message, reauthenticate: true }`.
   */
  on('POST /auth/reauthenticate', async (c, { body: { password } }) => {
    const until = await ctx.reauth.reauthenticate(
      c.get('session')!,
      currentUser(c),
      password,
      clientAddress(c, ctx.config.trustProxy),
    );
    return { reauthenticatedUntil: until.toISOString() };
  });

  /** Public: it also ends a pending login, which has no session yet. */
  on('POST /auth/logout', async (c) => {
    const session = c.get('session');
    if (session) await ctx.sessions.end(session.idHash);
    clearSessionCookie(c, cookie);
    const pendingToken = readPendingCookie(c, pendingCookie);
    if (pendingToken !== undefined) {
      await ctx.pendingLogins.end(pendingToken);
      clearPendingCookie(c, pendingCookie);
    }
  });

  return router;
}
