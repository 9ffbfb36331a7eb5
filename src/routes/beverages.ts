import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/** /api/beverages: the caller's vault (contract/routes/entries.ts). */
export function beverageRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/beverages');
  const service = ctx.beverages;
  const views = ctx.entryViews;

  on('GET /beverages', async (c, { query }) => {
    const viewer = currentUser(c);
    const page = await service.list(viewer, { ...query, inCellar: query.cellar });
    // Serialized as it is assembled (the contract's BeveragePage): src/beverages/entry-view.ts.
    return c.body(await views.pageJson(viewer, page), 200, {
      'Content-Type': 'application/json',
    });
  });

  // Many of the caller's own entries at once (before /{id}, which would take 'visibility').
  on('PATCH /beverages/visibility', async (c, { body }) => {
    const selection = body.ids ? { ids: body.ids } : { all: body.all ?? {} };
    return { updated: await service.changeVisibility(currentUser(c).id, selection, body) };
  });

  on('GET /beverages/{id}', async (c) => {
    const viewer = currentUser(c);
    const entry = await service.view(viewer, idParam(c, 'id', 'Beverage'));
    return { beverage: await views.entry(viewer, entry) };
  });

  on('POST /beverages', async (c, { form }) => {
    const viewer = currentUser(c);
    const entry = await service.create(viewer, form.fields, form.files.photo);
    return { beverage: views.created(viewer, entry) };
  });

  on('PATCH /beverages/{id}', async (c, { form }) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Beverage');
    const { removePhoto, ...changes } = form.fields;
    const replace = form.files.photo;
    const photo = { ...(replace && { replace }), remove: removePhoto ?? false };
    const entry = await service.update(viewer, id, changes, photo);
    return { beverage: await views.entry(viewer, entry) };
  });

  on('DELETE /beverages/{id}', async (c) => {
    await service.remove(currentUser(c), idParam(c, 'id', 'Beverage'));
  });

  // The body is optional: none (or an empty one) means "clone to the to-try list".
  on('POST /beverages/{id}/clone', async (c, { body }) => {
    const viewer = currentUser(c);
    const entry = await service.clone(viewer, idParam(c, 'id', 'Beverage'), body.status);
    return { beverage: views.created(viewer, entry) };
  });

  return router;
}
