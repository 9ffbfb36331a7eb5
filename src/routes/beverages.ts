import type { Hono } from 'hono';
import { NO_CONVERSATION } from '../../contract/conversation.ts';
import type { Role } from '../../contract/enums.ts';
import { presentBeverage, presentPageJson } from '../beverages/present.ts';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';

/** /api/beverages: the caller's vault (contract/routes/entries.ts). */
export function beverageRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/beverages');
  const service = ctx.beverages;
  const countsOf = (viewer: { id: number; role: Role }, id: number) =>
    ctx.conversation.counts(viewer, { kind: 'local', id });

  on('GET /beverages', (c, { query }) => {
    const viewer = currentUser(c);
    const page = service.list(viewer, { ...query, inCellar: query.cellar });
    const ids = page.entries.map((entry) => entry.id);
    const counts = ctx.conversation.countsOf(viewer, 'local', ids);
    // Serialized as it is assembled (the contract's BeveragePage): src/beverages/present.ts.
    return c.body(presentPageJson(page.entries, viewer.id, page.nextCursor, counts), 200, {
      'Content-Type': 'application/json',
    });
  });

  // Many of the caller's own entries at once (before /{id}, which would take 'visibility').
  on('PATCH /beverages/visibility', (c, { body }) => {
    const selection = body.ids ? { ids: body.ids } : { all: body.all ?? {} };
    return { updated: service.changeVisibility(currentUser(c).id, selection, body) };
  });

  on('GET /beverages/{id}', (c) => {
    const viewer = currentUser(c);
    const entry = service.view(viewer, idParam(c, 'id', 'Beverage'));
    return { beverage: presentBeverage(entry, viewer.id, countsOf(viewer, entry.id)) };
  });

  on('POST /beverages', async (c, { form }) => {
    const viewer = currentUser(c);
    const entry = await service.create(viewer, form.fields, form.files.photo);
    return { beverage: presentBeverage(entry, viewer.id, NO_CONVERSATION) };
  });

  on('PATCH /beverages/{id}', async (c, { form }) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Beverage');
    const { removePhoto, ...changes } = form.fields;
    const replace = form.files.photo;
    const photo = { ...(replace && { replace }), remove: removePhoto ?? false };
    const entry = await service.update(viewer, id, changes, photo);
    return { beverage: presentBeverage(entry, viewer.id, countsOf(viewer, id)) };
  });

  on('DELETE /beverages/{id}', async (c) => {
    await service.remove(currentUser(c), idParam(c, 'id', 'Beverage'));
  });

  // The body is optional: none (or an empty one) means "clone to the to-try list".
  on('POST /beverages/{id}/clone', async (c, { body }) => {
    const viewer = currentUser(c);
    const entry = await service.clone(viewer, idParam(c, 'id', 'Beverage'), body.status);
    return { beverage: presentBeverage(entry, viewer.id, NO_CONVERSATION) };
  });

  return router;
}
