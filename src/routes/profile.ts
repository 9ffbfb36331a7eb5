import type { Hono } from 'hono';
import { newPasswordSchema, profileFormSchema } from '../../contract/users.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../domain-error.ts';
import { parseWith } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { readForm } from '../http/form.ts';
import { currentUser } from '../http/session.ts';
import { presentPublicProfile, presentUser } from '../users/present.ts';

/** /api/users/me and /api/users/profiles/{username}: a user's own profile and others'. */
export function profileRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/users');

  on('PATCH /users/me', async (c) => {
    let user = currentUser(c);
    const { fields, files } = await readForm(c, ['avatar']);
    const form = parseWith(profileFormSchema, fields);
    if (form.newPassword !== undefined || form.currentPassword !== undefined) {
      if (!form.currentPassword) throw badRequest('Current password is required');
      const newPassword = parseWith(newPasswordSchema, form.newPassword);
      user = await ctx.profiles.changePassword(
        user,
        form.currentPassword,
        newPassword,
        c.get('session')?.idHash,
        clientAddress(c, ctx.config.trustProxy),
      );
    }
    const updated = await ctx.profiles.update(
      user,
      {
        fullName: form.fullName,
        email: form.email,
        bio: form.bio,
        activityPubEnabled: form.activityPubEnabled,
        defaultVisibility: form.defaultVisibility,
        approveFollowers: form.approveFollowers,
      },
      { replace: files.avatar, remove: form.removeAvatar ?? false },
    );
    return { user: presentUser(updated, ctx.config.origin) };
  });

  on('GET /users/profiles/{username}', (c) => {
    const user = ctx.profiles.byUsername(c.req.param('username') ?? '');
    return { user: presentPublicProfile(user, ctx.config.origin) };
  });

  return router;
}
