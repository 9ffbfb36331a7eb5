import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';
import { presentTasting } from '../tastings/present.ts';

/** /api/beverages/{id}/bottles: an entry's bottles, its owner's alone (docs/cellar.md, "Bottles"). */
export function bottleRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/beverages');
  const bottles = ctx.bottles;
  const entryId = (c: Context<AppEnv>) => idParam(c, 'id', 'Beverage');
  const bottleId = (c: Context<AppEnv>) => idParam(c, 'bottleId', 'Bottle');

  on('GET /beverages/{id}/bottles', async (c) => ({
    bottles: await bottles.list(currentUser(c), entryId(c)),
  }));

  on('POST /beverages/{id}/bottles', async (c, { body }) => ({
    bottle: await bottles.add(currentUser(c), entryId(c), body),
  }));

  on('PATCH /beverages/{id}/bottles/{bottleId}', async (c, { body }) => ({
    bottle: await bottles.change(currentUser(c), entryId(c), bottleId(c), body),
  }));

  on('DELETE /beverages/{id}/bottles/{bottleId}', async (c) => {
    await bottles.remove(currentUser(c), entryId(c), bottleId(c));
  });

  // The answer has the entry as its owner now sees it (its bottleCount, its cellar flag).
  on('POST /beverages/{id}/bottles/{bottleId}/open', async (c, sent) => {
    const viewer = currentUser(c);
    const id = entryId(c);
    const which = bottleId(c);
    let opened;
    if (!sent.form) opened = await bottles.open(viewer, id, which, sent.body);
    else {
      // Form data: the tasting's fields, its photo and keepInCellar; a tasting is written.
      const { form } = sent;
      const { keepInCellar, ...tasting } = form.fields;
      const input = { tasting, ...(keepInCellar !== undefined && { keepInCellar }) };
      const photo = form.files.photo;
      opened = photo
        ? await bottles.openWithPhoto(viewer, id, which, input, photo)
        : await bottles.open(viewer, id, which, input);
    }
    const entry = await ctx.beverages.view(viewer, id);
    return {
      bottle: opened.bottle,
      tasting: opened.tasting && presentTasting(opened.tasting),
      beverage: await ctx.entryViews.entry(viewer, entry),
    };
  });

  return router;
}
