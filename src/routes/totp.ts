import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { readJson } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AppEnv } from '../http/env.ts';
import { currentPassword, readOptionalPassword } from '../http/reauthentication.ts';
import { currentUser, requireUser } from '../http/session.ts';
import { presentUser } from '../users/present.ts';

const CODE_MESSAGE = 'Enter the 6-digit code from your authenticator app';

const code = z
  .string({ error: CODE_MESSAGE })
  .trim()
  .regex(/^\d{6}$/, CODE_MESSAGE);

const verifyBody = z.object({ token: code, password: currentPassword });

const disableBody = z.object({
  token: code,
  password: z.string({ error: 'Password is required' }).max(1024, 'Password is too long'),
});

/**
 * /api/totp: the signed-in user's authenticator app (setup, confirm, turn off). Setup and
 * confirm need the current password (in the body as `password`, or entered in this session
 * within the last minutes); turning off needs the password and a code. Confirming and turning
 * off end the user's other sessions.
 */
export function totpRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(requireUser);
  const address = (c: Parameters<typeof clientAddress>[0]) =>
    clientAddress(c, ctx.config.trustProxy);
  const sessionOf = (c: Context<AppEnv>) => c.get('session')!;

  routes.post('/setup', async (c) => {
    const password = await readOptionalPassword(c);
    await ctx.reauth.require(sessionOf(c), currentUser(c), password, address(c));
    return c.json(await ctx.totp.setup(currentUser(c)));
  });

  routes.post('/verify', async (c) => {
    const { token, password } = await readJson(c, verifyBody);
    await ctx.reauth.require(sessionOf(c), currentUser(c), password, address(c));
    const user = ctx.totp.confirm(currentUser(c), token, address(c));
    ctx.reauth.secondFactorChanged(user.id, sessionOf(c).idHash);
    return c.json({ user: presentUser(user, ctx.config.origin) });
  });

  routes.post('/disable', async (c) => {
    const { token, password } = await readJson(c, disableBody);
    const user = await ctx.totp.disable(currentUser(c), token, password, address(c));
    ctx.reauth.secondFactorChanged(user.id, sessionOf(c).idHash);
    return c.json({ user: presentUser(user, ctx.config.origin) });
  });

  return routes;
}
