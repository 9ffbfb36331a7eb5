import { z } from 'zod';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES, VISIBILITIES } from '../../contract/enums.ts';
import { MAKER_MAX_LENGTH, NAME_MAX_LENGTH, NOTES_MAX_LENGTH } from './catalog.ts';

// Field rules for entries as they arrive in form data: every value is text, parsed strictly.

export const typeField = z.enum(BEVERAGE_TYPES, { error: 'Type must be WHISKEY, WINE or BEER' });
export const statusField = z.enum(BEVERAGE_STATUSES, { error: 'Status must be TRIED or TO_TRY' });

export const visibilityField = z.enum(VISIBILITIES, {
  error: 'Visibility must be PRIVATE, FOLLOWERS or MEMBERS',
});

export const nameField = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(NAME_MAX_LENGTH, `Name must be at most ${NAME_MAX_LENGTH} characters long`);

export const subtypeField = z
  .string({ error: 'Subtype must be text' })
  .trim()
  .min(1, 'Subtype is required');

export const makerField = z
  .string({ error: 'Maker must be text' })
  .trim()
  .max(MAKER_MAX_LENGTH, `Maker must be at most ${MAKER_MAX_LENGTH} characters long`);

export const notesField = z
  .string({ error: 'Notes must be text' })
  .trim()
  .max(NOTES_MAX_LENGTH, `Notes must be at most ${NOTES_MAX_LENGTH} characters long`);

export const ratingField = z
  .string({ error: 'Rating must be a whole number from 0 to 5' })
  .regex(/^[0-5]$/, 'Rating must be a whole number from 0 to 5')
  .transform(Number);

/** 'true' or 'false' and nothing else. */
export const booleanField = (name: string) =>
  z
    .enum(['true', 'false'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true');

export const createEntryForm = z.object({
  name: nameField,
  type: typeField,
  subtype: subtypeField.optional(),
  rating: ratingField.optional(),
  status: statusField.optional(),
  inCellar: booleanField('inCellar').optional(),
  makerName: makerField.optional(),
  notes: notesField.optional(),
  visibility: visibilityField.optional(),
  federated: booleanField('federated').optional(),
});

export const updateEntryForm = z.object({
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
  federated: booleanField('federated').optional(),
});

export const listQuery = z.object({
  userId: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'userId must be a positive integer')
    .transform(Number)
    .optional(),
  type: typeField.optional(),
  status: statusField.optional(),
  q: z
    .string()
    .max(200, 'Search text must be at most 200 characters long')
    .transform((v) => v.trim() || undefined)
    .optional(),
  cellar: booleanField('cellar').optional(),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, 'limit must be a whole number from 1 to 200')
    .transform(Number)
    .refine((n) => n <= 200, 'limit must be a whole number from 1 to 200')
    .optional(),
  cursor: z.string().max(100, 'The cursor is not valid').optional(),
});
