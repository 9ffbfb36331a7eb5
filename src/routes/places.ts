import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/** /api/cellar/places: the caller's places (docs/cellar.md, "Places"). */
export function placeRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/cellar/places');
  const places = ctx.places;

  on('GET /cellar/places', async (c) => ({ places: await places.list(currentUser(c).id) }));

  on('POST /cellar/places', async (c, { body }) => ({
    place: await places.create(currentUser(c).id, body),
  }));

  on('PATCH /cellar/places/{id}', async (c, { body }) => ({
    place: await places.update(currentUser(c).id, idParam(c, 'id', 'Place'), body),
  }));

  on('DELETE /cellar/places/{id}', async (c) => {
    await places.remove(currentUser(c).id, idParam(c, 'id', 'Place'));
  });

  return router;
}
