import { Hono } from 'hono';
import { shareBodySchema } from '../../contract/beverages.ts';
import { presentBeverage } from '../beverages/present.ts';
import type { AppContext } from '../context.ts';
import { idParam, readJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser, requireUser } from '../http/session.ts';

/** /api/beverages/:id/share: sharing an entry with another user of the vault (docs/social.md). */
export function shareRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(requireUser);

  routes.post('/:id/share', async (c) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Beverage');
    const body = await readJson(c, shareBodySchema);
    const entry = ctx.shares.share(viewer, id, body);
    const counts = ctx.conversation.counts(viewer, { kind: 'local', id });
    return c.json({ beverage: presentBeverage(entry, viewer.id, counts) });
  });

  routes.delete('/:id/share/:shareId', (c) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Beverage');
    ctx.shares.unshare(viewer, id, idParam(c, 'shareId', 'Share'));
    return c.body(null, 204);
  });

  return routes;
}
