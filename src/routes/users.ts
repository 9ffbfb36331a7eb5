import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { presentUser } from '../users/present.ts';

/** /api/users: the admin's user registry (contract/routes/people.ts). */
export function userRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/users');
  const present = (u: Parameters<typeof presentUser>[0]) => presentUser(u, ctx.config.origin);

  on('GET /users', async () => ({ users: (await ctx.userAdmin.list()).map(present) }));

  on('POST /users', async (_c, { body }) => ({ user: present(await ctx.userAdmin.create(body)) }));

  on('PATCH /users/{id}', async (c, { body }) => {
    const id = idParam(c, 'id', 'User');
    return { user: present(await ctx.userAdmin.update(id, body)) };
  });

  return router;
}
