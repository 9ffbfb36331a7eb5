import { Hono } from 'hono';
import { z } from 'zod';
import { VISIBILITIES } from '../../contract/enums.ts';
import type { AppContext } from '../context.ts';
import { badRequest } from '../domain-error.ts';
import { parseWith } from '../http/body.ts';
import { clientAddress } from '../http/client-address.ts';
import type { AppEnv } from '../http/env.ts';
import { readForm } from '../http/form.ts';
import { currentUser, requireUser } from '../http/session.ts';
import { presentPublicProfile, presentUser } from '../users/present.ts';
import {
  bioSchema,
  emailSchema,
  fullNameSchema,
  newPasswordSchema,
  unlessBlank,
} from '../users/rules.ts';

const trueOrFalse = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true');

const profileForm = z.object({
  fullName: unlessBlank(fullNameSchema).optional(),
  email: unlessBlank(emailSchema).optional(),
  bio: bioSchema.optional(),
  activityPubEnabled: trueOrFalse('activityPubEnabled').optional(),
  approveFollowers: trueOrFalse('approveFollowers').optional(),
  removeAvatar: trueOrFalse('removeAvatar').optional(),
  defaultVisibility: z
    .enum(VISIBILITIES, { error: 'Visibility must be PRIVATE, FOLLOWERS or MEMBERS' })
    .optional(),
  currentPassword: z.string().max(1024, 'Current password is too long').optional(),
  newPassword: z.string().optional(),
});

/** /api/users/me and /api/users/profiles/{username}: a user's own profile and others'. */
export function profileRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.patch('/me', requireUser, async (c) => {
    let user = currentUser(c);
    const { fields, files } = await readForm(c, ['avatar']);
    const form = parseWith(profileForm, fields);
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
    return c.json({ user: presentUser(updated, ctx.config.origin) });
  });

  routes.get('/profiles/:username', requireUser, (c) => {
    const user = ctx.profiles.byUsername(c.req.param('username'));
    return c.json({ user: presentPublicProfile(user, ctx.config.origin) });
  });

  return routes;
}
