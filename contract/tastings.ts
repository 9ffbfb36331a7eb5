import { z } from 'zod';
import { imageFile } from './form-files.ts';
import { beverageSchema } from './beverages.ts';
import { bottleSchema, dayField } from './cellar.ts';
import { NOTES_MAX_LENGTH } from './entry-limits.ts';

/**
 * Tastings of an entry over time: a dated rating and notes, with an optional photo, from an
 * opened bottle or on their own. Whoever may see the entry may see its tastings; only its owner
 * writes them.
 */
export const tastingSchema = z.object({
  id: z.number().int(),
  beverageId: z.number().int(),
  /** 'YYYY-MM-DD'. */
  tastedOn: z.string(),
  /** 1 to 5, or null when not rated. */
  rating: z.number().int().nullable(),
  notes: z.string(),
  /** 'media/<hex>.jpg', served at '/' + photoPath; null without a photo. */
  photoPath: z.string().nullable(),
  /** The vintage of the bottle it was opened from, if any. */
  vintage: z.number().int().nullable(),
  /** Whether it was written on opening a bottle. */
  opened: z.boolean(),
  createdAt: z.string(),
});
export type Tasting = z.infer<typeof tastingSchema>;

/** GET /beverages/{id}/tastings: newest first (by day, then as written). */
export const tastingListSchema = z.object({ tastings: z.array(tastingSchema) });
export const tastingResponseSchema = z.object({ tasting: tastingSchema });

const ratingField = z
  .number({ error: 'Rating must be a whole number from 1 to 5' })
  .int('Rating must be a whole number from 1 to 5')
  .min(1, 'Rating must be a whole number from 1 to 5')
  .max(5, 'Rating must be a whole number from 1 to 5');
const notesField = z
  .string({ error: 'Notes must be text' })
  .trim()
  .max(NOTES_MAX_LENGTH, `Notes must be at most ${NOTES_MAX_LENGTH} characters long`);
const tastedOnField = dayField('Tasting date');

/** A tasting's fields as JSON: the day is today (the server's) when left out. */
export const tastingBodySchema = z
  .object({
    tastedOn: tastedOnField.optional(),
    rating: ratingField.nullable().optional(),
    notes: notesField.optional(),
  })
  .strict();
export type TastingBody = z.output<typeof tastingBodySchema>;

/** The same fields as form data (with a photo): every value is text; '' clears the rating. */
export const tastingFormSchema = z.object({
  tastedOn: tastedOnField.optional(),
  rating: z
    .string({ error: 'Rating must be a whole number from 1 to 5' })
    .regex(/^[1-5]?$/, 'Rating must be a whole number from 1 to 5')
    .transform((v) => (v === '' ? null : Number(v)))
    .optional(),
  notes: notesField.optional(),
  removePhoto: z
    .enum(['true', 'false'], { error: 'removePhoto must be true or false' })
    .transform((v) => v === 'true')
    .optional()
    .meta({ description: 'On a change: take the photo away' }),
  photo: imageFile(),
});
export type TastingForm = z.output<typeof tastingFormSchema>;

/**
 * POST /beverages/{id}/bottles/{bottleId}/open: takes one bottle out. With `tasting`, a tasting
 * is written from it. `keepInCellar` says, when it was the entry's last bottle, whether the entry
 * stays 'In cellar' (it does unless false).
 */
export const openBottleSchema = z
  .object({
    tasting: tastingBodySchema.optional(),
    keepInCellar: z.boolean({ error: 'keepInCellar must be true or false' }).optional(),
  })
  .strict();
export type OpenBottle = z.output<typeof openBottleSchema>;

/**
 * The same as form data, for a tasting with a photo (one request, so that an opening kept
 * offline keeps its photo too): sending the form writes a tasting from the bottle.
 */
export const openBottleFormSchema = tastingFormSchema.omit({ removePhoto: true }).extend({
  keepInCellar: z
    .enum(['true', 'false'], { error: 'keepInCellar must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});

/** The answer of opening a bottle: the bottle as it now is, the tasting, and the entry. */
export const openBottleResponseSchema = z.object({
  bottle: bottleSchema,
  tasting: tastingSchema.nullable(),
  beverage: beverageSchema,
});
export type OpenBottleResponse = z.infer<typeof openBottleResponseSchema>;
