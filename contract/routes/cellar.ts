import {
  bottleCreateSchema,
  bottleListSchema,
  bottleResponseSchema,
  bottleUpdateSchema,
  cellarBottlePageSchema,
  cellarBottlesQuerySchema,
  cellarSummarySchema,
  placeCreateSchema,
  placeListSchema,
  placeResponseSchema,
  placeUpdateSchema,
} from '../cellar.ts';
import {
  openBottleFormSchema,
  openBottleResponseSchema,
  openBottleSchema,
  tastingBodySchema,
  tastingFormSchema,
  tastingListSchema,
  tastingResponseSchema,
} from '../tastings.ts';
import { route } from './route.ts';

/** The cellar: places, the bottles of an entry, opening one, and the cellar's figures. */
const cellar = {
  'GET /cellar': route({
    summary: "The caller's cellar in figures: bottles, windows, value per currency",
    tag: 'Cellar',
    access: 'read',
    answer: cellarSummarySchema,
  }),
  'GET /cellar/bottles': route({
    summary: "The caller's bottles by place, filtered",
    description:
      'Follow `nextCursor` for the next page; `placeId=none` lists bottles without a place.',
    tag: 'Cellar',
    access: 'read',
    query: cellarBottlesQuerySchema,
    answer: cellarBottlePageSchema,
    errors: [400],
  }),
  'GET /cellar/places': route({
    summary: "The caller's places, each after the place it is in, with bottle counts",
    tag: 'Cellar',
    access: 'read',
    answer: placeListSchema,
  }),
  'POST /cellar/places': route({
    summary: 'Make a place, at the top or inside another',
    tag: 'Cellar',
    access: 'write',
    json: placeCreateSchema,
    answer: placeResponseSchema,
    status: 201,
    errors: [400, 404, 409],
  }),
  'PATCH /cellar/places/{id}': route({
    summary: 'Rename a place or move it into another (null: to the top)',
    tag: 'Cellar',
    access: 'write',
    json: placeUpdateSchema,
    answer: placeResponseSchema,
    errors: [400, 404, 409],
  }),
  'DELETE /cellar/places/{id}': route({
    summary: 'Delete a place and the empty places inside it',
    description: 'Refused (409) while a bottle is in it or in a place inside it.',
    tag: 'Cellar',
    access: 'write',
    status: 204,
    errors: [404, 409],
  }),
  'GET /beverages/{id}/bottles': route({
    summary: "An entry's bottles (its owner's only)",
    tag: 'Cellar',
    access: 'read',
    answer: bottleListSchema,
    errors: [400, 404],
  }),
  'POST /beverages/{id}/bottles': route({
    summary: 'Add bottles to an entry; the entry goes into the cellar',
    tag: 'Cellar',
    access: 'write',
    json: bottleCreateSchema,
    answer: bottleResponseSchema,
    status: 201,
    errors: [400, 404],
  }),
  'PATCH /beverages/{id}/bottles/{bottleId}': route({
    summary: 'Change bottles of an entry (any of their fields)',
    tag: 'Cellar',
    access: 'write',
    json: bottleUpdateSchema,
    answer: bottleResponseSchema,
    errors: [400, 404],
  }),
  'DELETE /beverages/{id}/bottles/{bottleId}': route({
    summary: 'Take bottles off an entry without opening them (sold, given, broken)',
    tag: 'Cellar',
    access: 'write',
    status: 204,
    errors: [404],
  }),
  'POST /beverages/{id}/bottles/{bottleId}/open': route({
    summary: 'Open a bottle: one fewer, and a tasting when given',
    description:
      'Answers the bottle (quantity after opening; the line is gone at 0), the tasting (null ' +
      "without one) and the entry. On the entry's last bottle, `keepInCellar: false` takes the " +
      'entry out of the cellar; it stays there otherwise. Sent as form data instead of JSON, ' +
      "its fields are the tasting's (with a `photo`) and `keepInCellar`, and a tasting is written.",
    tag: 'Cellar',
    access: 'write',
    json: openBottleSchema,
    form: openBottleFormSchema,
    jsonOptional: true,
    answer: openBottleResponseSchema,
    errors: [400, 404, 409, 413, 415],
  }),
};

/** Tastings of an entry over time. */
const tastings = {
  'GET /beverages/{id}/tastings': route({
    summary: "An entry's tastings, newest first (whoever may see the entry)",
    tag: 'Tastings',
    access: 'read',
    answer: tastingListSchema,
    errors: [400, 404],
  }),
  'POST /beverages/{id}/tastings': route({
    summary: 'Log a tasting of an entry (JSON, or form data with a photo)',
    tag: 'Tastings',
    access: 'write',
    json: tastingBodySchema,
    form: tastingFormSchema,
    answer: tastingResponseSchema,
    status: 201,
    errors: [400, 404, 413, 415],
  }),
  'PATCH /beverages/{id}/tastings/{tastingId}': route({
    summary: 'Change a tasting (JSON, or form data with a new photo)',
    tag: 'Tastings',
    access: 'write',
    json: tastingBodySchema,
    form: tastingFormSchema,
    answer: tastingResponseSchema,
    errors: [400, 404, 413, 415],
  }),
  'DELETE /beverages/{id}/tastings/{tastingId}': route({
    summary: 'Delete a tasting',
    tag: 'Tastings',
    access: 'write',
    status: 204,
    errors: [404],
  }),
};

export const cellarRoutes = { ...cellar, ...tastings };
