import { Hono } from 'hono';
import { cloneBodySchema, visibilityChangeSchema } from '../../contract/beverages.ts';
import { NO_CONVERSATION } from '../../contract/conversation.ts';
import type { Role } from '../../contract/enums.ts';
import { createEntryForm, listQuery, updateEntryForm } from '../beverages/rules.ts';
import { presentBeverage, presentPageJson } from '../beverages/present.ts';
import type { AppContext } from '../context.ts';
import { idParam, parseWith, readJson, readOptionalJson } from '../http/body.ts';
import type { AppEnv } from '../http/env.ts';
import { readForm } from '../http/form.ts';
import { currentUser, requireUser } from '../http/session.ts';

/** /api/beverages: the caller's vault. */
export function beverageRoutes(ctx: AppContext): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.use(requireUser);
  const service = ctx.beverages;
  const countsOf = (viewer: { id: number; role: Role }, id: number) =>
    ctx.conversation.counts(viewer, { kind: 'local', id });

  routes.get('/', (c) => {
    const viewer = currentUser(c);
    const query = parseWith(listQuery, c.req.query());
    const page = service.list(viewer, { ...query, inCellar: query.cellar });
    const ids = page.entries.map((entry) => entry.id);
    const counts = ctx.conversation.countsOf(viewer, 'local', ids);
    // Serialized as it is assembled (the contract's BeveragePage): src/beverages/present.ts.
    return c.body(presentPageJson(page.entries, viewer.id, page.nextCursor, counts), 200, {
      'Content-Type': 'application/json',
    });
  });

  // Many of the caller's own entries at once (before /:id, which would take 'visibility').
  routes.patch('/visibility', async (c) => {
    const viewer = currentUser(c);
    const body = await readJson(c, visibilityChangeSchema);
    const selection = body.ids ? { ids: body.ids } : { all: body.all ?? {} };
    const updated = service.changeVisibility(viewer.id, selection, body);
    return c.json({ updated });
  });

  routes.get('/:id', (c) => {
    const viewer = currentUser(c);
    const entry = service.view(viewer, idParam(c, 'id', 'Beverage'));
    return c.json({ beverage: presentBeverage(entry, viewer.id, countsOf(viewer, entry.id)) });
  });

  routes.post('/', async (c) => {
    const viewer = currentUser(c);
    const { fields, files } = await readForm(c, ['photo']);
    const input = parseWith(createEntryForm, fields);
    const entry = await service.create(viewer, input, files.photo);
    return c.json({ beverage: presentBeverage(entry, viewer.id, NO_CONVERSATION) }, 201);
  });

  routes.patch('/:id', async (c) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Beverage');
    const { fields, files } = await readForm(c, ['photo']);
    const { removePhoto, ...changes } = parseWith(updateEntryForm, fields);
    const photo = { ...(files.photo && { replace: files.photo }), remove: removePhoto ?? false };
    const entry = await service.update(viewer, id, changes, photo);
    return c.json({ beverage: presentBeverage(entry, viewer.id, countsOf(viewer, id)) });
  });

  routes.delete('/:id', async (c) => {
    const viewer = currentUser(c);
    await service.remove(viewer, idParam(c, 'id', 'Beverage'));
    return c.body(null, 204);
  });

  routes.post('/:id/clone', async (c) => {
    const viewer = currentUser(c);
    const id = idParam(c, 'id', 'Beverage');
    // The body is optional: none (or an empty one) means "clone to the to-try list".
    const { status } = await readOptionalJson(c, cloneBodySchema);
    const entry = await service.clone(viewer, id, status);
    return c.json({ beverage: presentBeverage(entry, viewer.id, NO_CONVERSATION) }, 201);
  });

  return routes;
}
