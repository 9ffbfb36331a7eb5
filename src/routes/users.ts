import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { idParam, readJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { requireAdmin } from '../http/session.ts';
import { presentUser } from '../users/present.ts';
import {
  emailSchema,
  fullNameSchema,
  passwordSchema,
  roleSchema,
  usernameSchema,
} from '../users/rules.ts';

const createUserBody = z.object({
  username: usernameSchema,
  fullName: fullNameSchema,
  email: emailSchema,
  password: passwordSchema,
  role: roleSchema,
});

const updateUserBody = z.object({
  fullName: fullNameSchema.optional(),
  email: emailSchema.optional(),
  role: roleSchema.optional(),
  password: z
    .string({ error: 'Password must be text' })
    .transform((v) => (v.trim() === '' ? undefined : v))
    .pipe(passwordSchema.optional())
    .nullish()
    .transform((v) => v ?? undefined),
});

/** /api/users: the admin's user registry. (Profiles, search and follows come with later issues.) */
export function userRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const present = (u: Parameters<typeof presentUser>[0]) => presentUser(u, ctx.config.origin);

  routes.get('/', requireAdmin, (c) => c.json({ users: ctx.userAdmin.list().map(present) }));

  routes.post('/', requireAdmin, async (c) => {
    const input = await readJson(c, createUserBody);
    const user = await ctx.userAdmin.create(input);
    return c.json({ user: present(user) }, 201);
  });

  routes.patch('/:id', requireAdmin, async (c) => {
    const id = idParam(c, 'id', 'User');
    const changes = await readJson(c, updateUserBody);
    const user = await ctx.userAdmin.update(id, changes);
    return c.json({ user: present(user) });
  });

  return routes;
}
