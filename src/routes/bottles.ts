import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { openBottleFormSchema } from '../../contract/tastings.ts';
import { idParam, parseWith } from '../http/body.ts';
import { readForm } from '../http/form.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';
import { presentTasting } from '../tastings/present.ts';

const openFormFields = openBottleFormSchema.omit({ photo: true });

/** /api/beverages/{id}/bottles: an entry's bottles, its owner's alone (docs/cellar.md, "Bottles"). */
export function bottleRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/beverages');
  const bottles = ctx.bottles;
  const entryId = (c: Context<AppEnv>) => idParam(c, 'id', 'Beverage');
  const bottleId = (c: Context<AppEnv>) => idParam(c, 'bottleId', 'Bottle');

  on('GET /beverages/{id}/bottles', (c) => ({
    bottles: bottles.list(currentUser(c), entryId(c)),
  }));

  on('POST /beverages/{id}/bottles', (c, { body }) => ({
    bottle: bottles.add(currentUser(c), entryId(c), body),
  }));

  on('PATCH /beverages/{id}/bottles/{bottleId}', (c, { body }) => ({
    bottle: bottles.change(currentUser(c), entryId(c), bottleId(c), body),
  }));

  on('DELETE /beverages/{id}/bottles/{bottleId}', (c) => {
    bottles.remove(currentUser(c), entryId(c), bottleId(c));
  });

  // The answer has the entry as its owner now sees it (its bottleCount, its cellar flag).
  on('POST /beverages/{id}/bottles/{bottleId}/open', async (c, { body }) => {
    const viewer = currentUser(c);
    const id = entryId(c);
    const which = bottleId(c);
    let opened;
    if (body) opened = bottles.open(viewer, id, which, body);
    else if (!c.req.header('content-type')) opened = bottles.open(viewer, id, which, {});
    else {
      // Form data: the tasting's fields, its photo and keepInCellar; a tasting is written.
      const form = await readForm(c, ['photo']);
      const { keepInCellar, ...tasting } = parseWith(openFormFields, form.fields);
      const input = { tasting, ...(keepInCellar !== undefined && { keepInCellar }) };
      const photo = form.files.photo;
      opened = photo
        ? await bottles.openWithPhoto(viewer, id, which, input, photo)
        : bottles.open(viewer, id, which, input);
    }
    const entry = ctx.beverages.view(viewer, id);
    return {
      bottle: opened.bottle,
      tasting: opened.tasting && presentTasting(opened.tasting),
      beverage: ctx.entryViews.entry(viewer, entry),
    };
  });

  return router;
}
