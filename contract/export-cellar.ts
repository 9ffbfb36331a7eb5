import { z } from 'zod';
import {
  BOTTLE_MAX_QUANTITY,
  BOTTLE_NOTE_MAX_LENGTH,
  PLACE_NAME_MAX_LENGTH,
  dayField,
} from './cellar.ts';
import { NOTES_MAX_LENGTH } from './entry-limits.ts';

/**
 * The cellar in the vault's export (format version 2), beside entries.json:
 *   cellar.json    the user's places (nested by parentId), every bottle line of their entries
 *                  and the bottle events the statistics are worked out from
 *   tastings.json  every tasting of their entries, with its photo under photos/
 * Ids are those of the vault the export came from: `entryId` is an entry's `id` in
 * entries.json, `placeId`/`parentId` a place's `id` here. An import gives everything new ids.
 * Exports of version 1 have neither file; they import as before.
 */
export const EXPORT_CELLAR_NAME = 'cellar.json';
export const EXPORT_TASTINGS_NAME = 'tastings.json';

const isoDateSchema = z.iso.datetime();
const exportId = z.number().int();
const year = z.number().int().min(1800).max(2200);

/** A place of the user's; `parentId` null at the top. */
export const exportPlaceSchema = z.object({
  id: exportId,
  name: z.string().trim().min(1).max(PLACE_NAME_MAX_LENGTH),
  parentId: exportId.nullable(),
  createdAt: isoDateSchema,
});
export type ExportPlace = z.infer<typeof exportPlaceSchema>;

/** A bottle line of an entry: how many bottles of one kind, where, and what one cost. */
export const exportBottleSchema = z.object({
  id: exportId,
  entryId: exportId,
  quantity: z.number().int().min(1).max(BOTTLE_MAX_QUANTITY),
  sizeMl: z.number().int().min(1).max(30_000),
  vintage: year.nullable(),
  placeId: exportId.nullable(),
  /** 'YYYY-MM-DD' or null. */
  purchasedOn: dayField('purchasedOn').nullable(),
  /** The price of one bottle, two decimals at most; null when none. */
  price: z.number().min(0).max(1_000_000).nullable(),
  /** ISO 4217 ('EUR'); set when the price is. */
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .nullable(),
  note: z.string().max(BOTTLE_NOTE_MAX_LENGTH),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
});
export type ExportBottle = z.infer<typeof exportBottleSchema>;

/** A change of the number of bottles (kept after the bottle or the entry is gone). */
export const exportBottleEventSchema = z.object({
  /** The entry it happened to; null when that entry is no longer in the export. */
  entryId: exportId.nullable(),
  kind: z.enum(['ADDED', 'OPENED', 'CHANGED', 'REMOVED']),
  change: z.number().int(),
  at: isoDateSchema,
});
export type ExportBottleEvent = z.infer<typeof exportBottleEventSchema>;

/** cellar.json. */
export const vaultCellarSchema = z.object({
  places: z.array(exportPlaceSchema),
  bottles: z.array(exportBottleSchema),
  bottleEvents: z.array(exportBottleEventSchema),
});
export type VaultCellar = z.infer<typeof vaultCellarSchema>;

/** A tasting of an entry. */
export const exportTastingSchema = z.object({
  id: exportId,
  entryId: exportId,
  /** 'YYYY-MM-DD'. */
  tastedOn: dayField('tastedOn'),
  rating: z.number().int().min(1).max(5).nullable(),
  notes: z.string().max(NOTES_MAX_LENGTH),
  /** The photo's path inside the ZIP ('photos/<hex>.jpg'); null without one. */
  photo: z
    .string()
    .regex(/^photos\/[A-Za-z0-9_-]{1,100}\.jpg$/, 'A photo must be named photos/<name>.jpg')
    .nullable(),
  vintage: year.nullable(),
  opened: z.boolean(),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
});
export type ExportTasting = z.infer<typeof exportTastingSchema>;

/** tastings.json. */
export const vaultTastingsSchema = z.object({ tastings: z.array(exportTastingSchema) });
export type VaultTastings = z.infer<typeof vaultTastingsSchema>;
