import type { Context, Hono } from 'hono';
import { tastingFormSchema } from '../../contract/tastings.ts';
import type { AppContext } from '../context.ts';
import { idParam, parseWith } from '../http/body.ts';
import { contractRouter } from '../http/contract-route.ts';
import type { AppEnv } from '../http/env.ts';
import { readForm } from '../http/form.ts';
import { currentUser } from '../http/session.ts';
import { presentTasting } from '../tastings/present.ts';
import type { PhotoChange, TastingInput } from '../tastings/service.ts';

/** The form's text fields (the photo arrives as a file, read apart). */
const tastingFormFields = tastingFormSchema.omit({ photo: true });

/**
 * /api/beverages/{id}/tastings: an entry's tastings (docs/cellar.md, "Tastings"). A write takes
 * JSON, or form data with a `photo` (the router leaves `body` undefined for a form, read here).
 */
export function tastingRoutes(ctx: AppContext): Hono<AppEnv> {
  const { router, on } = contractRouter('/beverages');
  const tastings = ctx.tastings;
  const entryId = (c: Context<AppEnv>) => idParam(c, 'id', 'Beverage');
  const tastingId = (c: Context<AppEnv>) => idParam(c, 'tastingId', 'Tasting');

  /** The fields and the photo change, from the JSON body or the form. */
  async function input(
    c: Context<AppEnv>,
    body: TastingInput | undefined,
  ): Promise<{ fields: TastingInput; photo: PhotoChange }> {
    if (body) return { fields: body, photo: {} };
    const form = await readForm(c, ['photo']);
    const { removePhoto, ...fields } = parseWith(tastingFormFields, form.fields);
    return { fields, photo: { replace: form.files.photo, remove: removePhoto ?? false } };
  }

  on('GET /beverages/{id}/tastings', (c) => ({
    tastings: tastings.list(currentUser(c), entryId(c)).map(presentTasting),
  }));

  on('POST /beverages/{id}/tastings', async (c, { body }) => {
    const id = entryId(c);
    const { fields, photo } = await input(c, body);
    const row = await tastings.create(currentUser(c), id, fields, photo.replace);
    return { tasting: presentTasting(row) };
  });

  on('PATCH /beverages/{id}/tastings/{tastingId}', async (c, { body }) => {
    const ids = { entry: entryId(c), tasting: tastingId(c) };
    const { fields, photo } = await input(c, body);
    const row = await tastings.change(currentUser(c), ids.entry, ids.tasting, fields, photo);
    return { tasting: presentTasting(row) };
  });

  on('DELETE /beverages/{id}/tastings/{tastingId}', async (c) => {
    await tastings.remove(currentUser(c), entryId(c), tastingId(c));
  });

  return router;
}
