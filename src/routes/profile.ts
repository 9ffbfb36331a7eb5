import type { Hono } from 'hono';
import { newPasswordSchema } from '../../contract/users.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../domain-error.ts';
import { parseWith } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';
import { presentPublicProfile, presentUser } from '../users/present.ts';

/** /api/users/me and /api/users/profiles/{username}: a user's own profile and others'. */
export function profileRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/users');

  on('PATCH /users/me', async (c, { form: { fields, files } }) => {
    let user = currentUser(c);
    if (fields.newPassword !== undefined || fields.currentPassword !== undefined) {
      if (!fields.currentPassword) throw badRequest('Current password is required');
      const newPassword = parseWith(newPasswordSchema, fields.newPassword);
      user = await ctx.profiles.changePassword(
        user,
        fields.currentPassword,
        newPassword,
        c.get('session')?.idHash,
        clientAddress(c, ctx.config.trustProxy),
      );
    }
    const updated = await ctx.profiles.update(
      user,
      {
        fullName: fields.fullName,
        email: fields.email,
        bio: fields.bio,
        activityPubEnabled: fields.activityPubEnabled,
        defaultVisibility: fields.defaultVisibility,
        approveFollowers: fields.approveFollowers,
      },
      { replace: files.avatar, remove: fields.removeAvatar ?? false },
    );
    return { user: presentUser(updated, ctx.config.origin) };
  });

  on('GET /users/profiles/{username}', async (c) => {
    const user = await ctx.profiles.byUsername(c.req.param('username') ?? '');
    return { user: presentPublicProfile(user, ctx.config.origin) };
  });

  return router;
}
