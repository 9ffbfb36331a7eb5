import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/** /api/beverages/{id}/share: sharing an entry with another user of the vault (docs/social.md). */
export function shareRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/beverages');

  on('POST /beverages/{id}/share', async (c, { body }) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Beverage');
    const entry = await ctx.shares.share(viewer, id, body);
    return { beverage: await ctx.entryViews.entry(viewer, entry) };
  });

  on('DELETE /beverages/{id}/share/{shareId}', async (c) => {
    const id = idParam(c, 'id', 'Beverage');
    await ctx.shares.unshare(currentUser(c), id, idParam(c, 'shareId', 'Share'));
  });

  return router;
}
