import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { idParam } from '../http/body.ts';
import { contractRouter, type RouteInput } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { currentUser } from '../http/session.ts';
import { presentTasting } from '../tastings/present.ts';
import type { PhotoChange, TastingInput } from '../tastings/service.ts';

/**
 * /api/beverages/{id}/tastings: an entry's tastings (docs/cellar.md, "Tastings"). A write takes
 * JSON, or form data with a `photo` (the contract router parses either).
 */
export function tastingRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/beverages');
  const tastings = ctx.tastings;
  const entryId = (c: Context<AppEnv>) => idParam(c, 'id', 'Beverage');
  const tastingId = (c: Context<AppEnv>) => idParam(c, 'tastingId', 'Tasting');

  /** The fields and the photo change, from the JSON body or the form. */
  function input(sent: RouteInput<'POST /beverages/{id}/tastings'>): {
    fields: TastingInput;
    photo: PhotoChange;
  } {
    if (!sent.form) return { fields: sent.body, photo: {} };
    const { removePhoto, ...fields } = sent.form.fields;
    return { fields, photo: { replace: sent.form.files.photo, remove: removePhoto ?? false } };
  }

  on('GET /beverages/{id}/tastings', async (c) => ({
    tastings: (await tastings.list(currentUser(c), entryId(c))).map(presentTasting),
  }));

  on('POST /beverages/{id}/tastings', async (c, sent) => {
    const id = entryId(c);
    const { fields, photo } = input(sent);
    const row = await tastings.create(currentUser(c), id, fields, photo.replace);
    return { tasting: presentTasting(row) };
  });

  on('PATCH /beverages/{id}/tastings/{tastingId}', async (c, sent) => {
    const ids = { entry: entryId(c), tasting: tastingId(c) };
    const { fields, photo } = input(sent);
    const row = await tastings.change(currentUser(c), ids.entry, ids.tasting, fields, photo);
    return { tasting: presentTasting(row) };
  });

  on('DELETE /beverages/{id}/tastings/{tastingId}', async (c) => {
    await tastings.remove(currentUser(c), entryId(c), tastingId(c));
  });

  return router;
}
