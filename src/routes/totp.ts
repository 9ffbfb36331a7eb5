import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { clientAddress } from '../http/client-address.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';
import { presentUser } from '../users/present.ts';

/**
 * /api/totp: the signed-in user's authenticator app (setup, confirm, turn off). Setup and
 * confirm need the current password (in the body as `password`, or entered in this session
 * within the last minutes); turning off needs the password and a code. Confirming and turning
 * off end the user's other sessions.
 */
export function totpRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/totp');
  const address = (c: Context<AppEnv>) => clientAddress(c, ctx.config.trustProxy);
  const sessionOf = (c: Context<AppEnv>) => c.get('session')!;

  on('POST /totp/setup', async (c, { body: { password } }) => {
    await ctx.reauth.require(sessionOf(c), currentUser(c), password, address(c));
    return ctx.totp.setup(currentUser(c));
  });

  on('POST /totp/verify', async (c, { body: { token, password } }) => {
    await ctx.reauth.require(sessionOf(c), currentUser(c), password, address(c));
    const user = await ctx.totp.confirm(currentUser(c), token, address(c));
    await ctx.reauth.secondFactorChanged(user.id, sessionOf(c).idHash);
    return { user: presentUser(user, ctx.config.origin) };
  });

  on('POST /totp/disable', async (c, { body: { token, password } }) => {
    const user = await ctx.totp.disable(currentUser(c), token, password, address(c));
    await ctx.reauth.secondFactorChanged(user.id, sessionOf(c).idHash);
    return { user: presentUser(user, ctx.config.origin) };
  });

  return router;
}
