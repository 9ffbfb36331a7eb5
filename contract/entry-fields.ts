import { z } from 'zod';
import { imageFile } from './form-files.ts';
import { MAKER_MAX_LENGTH, NAME_MAX_LENGTH, NOTES_MAX_LENGTH } from './entry-limits.ts';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES, VISIBILITIES } from './enums.ts';

// An entry's fields as they arrive in form data (POST and PATCH /beverages) and in the query of
// GET /beverages: every value is text, parsed strictly; the first problem is the 400 message.

export const typeField = z.enum(BEVERAGE_TYPES, { error: 'Type must be WHISKEY, WINE or BEER' });
export const statusField = z.enum(BEVERAGE_STATUSES, { error: 'Status must be TRIED or TO_TRY' });

export const visibilityField = z.enum(VISIBILITIES, {
  error: 'Visibility must be PRIVATE, FOLLOWERS or MEMBERS',
});

const nameField = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters long`);

const subtypeField = z
  .string({ error: 'Subtype must be text' })
  .trim()
  .min(1, 'Subtype is required')
  .meta({ description: "One of the type's subtypes; the type's first when left out" });

const makerField = z
  .string({ error: 'Maker must be text' })
  .trim()
  .max(MAKER_MAX_LENGTH, `Maker must be at most ${MAKER_MAX_LENGTH} characters long`);

const notesField = z
  .string({ error: 'Notes must be text' })
  .trim()
  .max(NOTES_MAX_LENGTH, `Notes must be at most ${NOTES_MAX_LENGTH} characters long`);

const ratingField = z
  .string({ error: 'Rating must be a whole number from 0 to 5' })
  .regex(/^[0-5]$/, 'Rating must be a whole number from 0 to 5')
  .transform(Number)
  .meta({ description: '0 to 5; 0 while to-try' });

/** 'true' or 'false' and nothing else. */
export const booleanField = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true');

const federatedField = booleanField('federated').meta({
  description: "Whether it goes to the owner's fediverse followers (never when PRIVATE)",
});

/** The years a drinking window may name. */
export const DRINK_YEAR_MIN = 1800;
export const DRINK_YEAR_MAX = 2200;
export const DRINK_YEAR_MESSAGE = `Drinking window years must be from ${DRINK_YEAR_MIN} to ${DRINK_YEAR_MAX}`;
export const DRINK_WINDOW_ORDER_MESSAGE = 'The drinking window cannot end before it starts';

/** A year of the drinking window, or '' for none (an open bound; on PATCH, clears it). */
const drinkYearField = (description: string) =>
  z
    .string({ error: DRINK_YEAR_MESSAGE })
    .trim()
    .regex(/^([0-9]{4})?$/, DRINK_YEAR_MESSAGE)
    .transform((v) => (v === '' ? null : Number(v)))
    .refine((v) => v === null || (v >= DRINK_YEAR_MIN && v <= DRINK_YEAR_MAX), DRINK_YEAR_MESSAGE)
    .meta({ description });

const drinkFromField = drinkYearField(
  'The first year of the drinking window; empty for none (on PATCH: clears it)',
);
const drinkUntilField = drinkYearField(
  'The last year of the drinking window; empty for none (on PATCH: clears it)',
);

/** The photo: judged by its content, stored as a JPEG at most 2048 pixels on its longer side. */
const photoField = imageFile();

/** The text fields of POST /beverages (the form's photo is read beside them). */
export const entryCreateFieldsSchema = z.object({
  name: nameField,
  type: typeField,
  subtype: subtypeField.optional(),
  rating: ratingField.optional(),
  status: statusField.optional(),
  inCellar: booleanField('inCellar').optional(),
  makerName: makerField.optional(),
  notes: notesField.optional(),
  visibility: visibilityField
    .optional()
    .meta({ description: "Who may see it; the owner's default visibility when left out" }),
  federated: federatedField.optional(),
  drinkFrom: drinkFromField.optional(),
  drinkUntil: drinkUntilField.optional(),
});

/** The text fields of PATCH /beverages/{id}: any of them; `removePhoto=true` takes the photo away. */
export const entryUpdateFieldsSchema = z.object({
  name: nameField.optional(),
  type: typeField.optional(),
  subtype: subtypeField.optional(),
  rating: ratingField.optional(),
  status: statusField.optional(),
  inCellar: booleanField('inCellar').optional(),
  makerName: makerField.optional(),
  notes: notesField.optional(),
  removePhoto: booleanField('removePhoto').optional(),
  visibility: visibilityField.optional(),
  federated: federatedField.optional(),
  drinkFrom: drinkFromField.optional(),
  drinkUntil: drinkUntilField.optional(),
});

/** POST /beverages as multipart form data: the text fields and an optional photo. */
export const entryCreateFormSchema = entryCreateFieldsSchema.extend({ photo: photoField });

/** PATCH /beverages/{id} as multipart form data: the changed fields and a new photo, if any. */
export const entryUpdateFormSchema = entryUpdateFieldsSchema.extend({ photo: photoField });
