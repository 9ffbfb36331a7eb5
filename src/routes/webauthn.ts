import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { presentCredential } from '../auth/webauthn.ts';
import { idParam } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import {
  clearPendingCookie,
  pendingCookiePolicy,
  readPendingCookie,
} from '../http/pending-login.ts';
import { currentUser, type CookiePolicy } from '../http/session.ts';
import { startSession } from '../http/sign-in.ts';
import { presentUser } from '../users/present.ts';

/**
 * /api/webauthn: security keys (contract/routes/sign-in.ts). Registration and the key list are
 * for the signed-in user; registering and removing a key need the current password (in the
 * body as `password`, or entered in this session within the last minutes) and end the user's
 * other sessions; authentication/verify completes a pending login (it needs no session); admin
 * routes list and remove any user's keys.
 */
export function webauthnRoutes(ctx: AppContext, cookie: CookiePolicy): Hono<AppEnv> {
  const { router, on } = contractRouter('/webauthn');
  const origin = ctx.config.origin;
  const pendingCookie = pendingCookiePolicy(origin);
  const list = async (userId: number) => (await ctx.webauthn.list(userId)).map(presentCredential);
  const reauthenticated = (c: Context<AppEnv>, password: string | undefined) =>
    ctx.reauth.require(
      c.get('session')!,
      currentUser(c),
      password,
      clientAddress(c, ctx.config.trustProxy),
    );

  on('POST /webauthn/registration/options', async (c, { body: { password } }) => {
    await reauthenticated(c, password);
    const session = c.get('session')!;
    return ctx.webauthn.registrationOptions(currentUser(c), session.idHash);
  });

  on('POST /webauthn/registration/verify', async (c, { body }) => {
    const { nickname, password, ...response } = body;
    await reauthenticated(c, password);
    const session = c.get('session')!;
    const result = await ctx.webauthn.register(
      currentUser(c),
      session.idHash,
      response as RegistrationResponseJSON,
      nickname,
    );
    await ctx.reauth.secondFactorChanged(result.user.id, session.idHash);
    return {
      credentials: result.credentials.map(presentCredential),
      user: presentUser(result.user, origin),
    };
  });

  on('GET /webauthn/credentials', async (c) => ({ credentials: await list(currentUser(c).id) }));

  on('DELETE /webauthn/credentials/{id}', async (c, { body: { password } }) => {
    const id = idParam(c, 'id', 'Security key');
    await reauthenticated(c, password);
    const result = await ctx.webauthn.removeOwn(currentUser(c), id);
    await ctx.reauth.secondFactorChanged(result.user.id, c.get('session')!.idHash);
    return {
      credentials: result.credentials.map(presentCredential),
      user: presentUser(result.user, origin),
    };
  });

  /** The second step with a security key: completes the pending login of this browser. */
  on('POST /webauthn/authentication/verify', async (c, { body }) => {
    const response = body as AuthenticationResponseJSON;
    const address = clientAddress(c, ctx.config.trustProxy);
    let user;
    try {
      user = await ctx.login.withWebAuthn(readPendingCookie(c, pendingCookie), response, address);
    } catch (error) {
      // An ended pending login takes its cookie with it.
      if (!(await ctx.pendingLogins.resolve(readPendingCookie(c, pendingCookie)))) {
        clearPendingCookie(c, pendingCookie);
      }
      throw error;
    }
    clearPendingCookie(c, pendingCookie);
    await startSession(
      c,
      { sessions: ctx.sessions, cookie, absoluteMs: ctx.config.sessionAbsoluteMs },
      user.id,
      address,
    );
    return { user: presentUser(user, origin), credentials: await list(user.id) };
  });

  on('GET /webauthn/admin/users/{id}/credentials', async (c) => {
    const userId = idParam(c, 'id', 'User');
    return { credentials: (await ctx.webauthn.listForUser(userId)).map(presentCredential) };
  });

  /**
   * An admin removes a user's key: all of that user's sessions end. An admin's own key needs
   * the password like on the profile page, and the admin's current session stays.
   */
  on('DELETE /webauthn/admin/credentials/{id}', async (c, { body: { password } }) => {
    const id = idParam(c, 'id', 'Security key');
    if ((await ctx.webauthn.ownerOf(id)) === currentUser(c).id) {
      await reauthenticated(c, password);
    }
    const result = await ctx.webauthn.removeAny(id);
    await ctx.reauth.secondFactorChanged(result.user.id, c.get('session')!.idHash);
    return {
      credentials: result.credentials.map(presentCredential),
      user: presentUser(result.user, origin),
    };
  });

  return router;
}
