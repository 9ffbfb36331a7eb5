import { z } from 'zod';
import {
  BOTTLE_MAX_QUANTITY,
  BOTTLE_NOTE_MAX_LENGTH,
  DEFAULT_BOTTLE_SIZE,
  PLACE_NAME_MAX_LENGTH,
} from './cellar-limits.ts';
import { BEVERAGE_TYPES } from './enums.ts';
import { integerQuery } from './query-fields.ts';

/**
 * The cellar beyond the 'In cellar' flag: places (nested), bottles of an entry, and the cellar's
 * figures. Every one of them is its owner's alone: nobody else is given a place, a bottle, a
 * count or a price.
 */

export {
  BOTTLE_MAX_QUANTITY,
  BOTTLE_NOTE_MAX_LENGTH,
  COMMON_BOTTLE_SIZES,
  DEFAULT_BOTTLE_SIZE,
  PLACE_MAX_DEPTH,
  PLACE_NAME_MAX_LENGTH,
} from './cellar-limits.ts';

/** The drinking windows GET /beverages and the cellar filter on, by the current year. */
export const DRINK_WINDOWS = ['NOW', 'PAST', 'LATER'] as const;
export type DrinkWindow = (typeof DRINK_WINDOWS)[number];

const id = (what: string) =>
  z
    .number({ error: `${what} must be an id` })
    .int(`${what} must be an id`)
    .positive(`${what} must be an id`)
    .max(Number.MAX_SAFE_INTEGER, `${what} must be an id`);

/** 'YYYY-MM-DD', a real calendar day. */
export const dayField = (label: string) =>
  z
    .string({ error: `${label} must be a date (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`)
    .refine((d) => {
      const t = new Date(`${d}T00:00:00Z`);
      return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
    }, `${label} must be a date (YYYY-MM-DD)`);

// ---- Places

/** A place of the caller's, with where it is and how many bottles it holds. */
export const placeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The place it is in; null at the top. */
  parentId: z.number().int().nullable(),
  /** The names from the top place down to this one: ['Basement', 'Rack A', 'Bin 3']. */
  path: z.array(z.string()),
  /** Bottles in this place itself. */
  bottleCount: z.number().int(),
  /** Bottles in this place and every place inside it. */
  totalBottleCount: z.number().int(),
});
export type Place = z.infer<typeof placeSchema>;

/** GET /cellar/places: every place of the caller's, each after its parent, siblings by name. */
export const placeListSchema = z.object({ places: z.array(placeSchema) });
export const placeResponseSchema = z.object({ place: placeSchema });

const placeName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(PLACE_NAME_MAX_LENGTH, `Name must be at most ${PLACE_NAME_MAX_LENGTH} characters long`);

/** POST /cellar/places. */
export const placeCreateSchema = z
  .object({ name: placeName, parentId: id('parentId').nullable().optional() })
  .strict();
export type PlaceCreate = z.infer<typeof placeCreateSchema>;

/** PATCH /cellar/places/{id}: a new name, or another parent (null: to the top), or both. */
export const placeUpdateSchema = z
  .object({ name: placeName.optional(), parentId: id('parentId').nullable().optional() })
  .strict();
export type PlaceUpdate = z.infer<typeof placeUpdateSchema>;

// ---- Bottles

/** Bottles of one kind of an entry: its owner's only. */
export const bottleSchema = z.object({
  id: z.number().int(),
  beverageId: z.number().int(),
  /** How many are left; 0 in the answer of opening the last one (the line is then gone). */
  quantity: z.number().int(),
  sizeMl: z.number().int(),
  vintage: z.number().int().nullable(),
  placeId: z.number().int().nullable(),
  /** The place's path (['Basement', 'Rack A']); [] when it has none. */
  placePath: z.array(z.string()),
  /** 'YYYY-MM-DD' or null. */
  purchasedOn: z.string().nullable(),
  /** The price of one bottle (two decimals), or null. */
  price: z.number().nullable(),
  /** ISO 4217 code ('EUR'); null without a price. */
  currency: z.string().nullable(),
  note: z.string(),
  createdAt: z.string(),
});
export type Bottle = z.infer<typeof bottleSchema>;

export const bottleListSchema = z.object({ bottles: z.array(bottleSchema) });
export const bottleResponseSchema = z.object({ bottle: bottleSchema });

const quantityField = z
  .number({ error: `Quantity must be a whole number from 1 to ${BOTTLE_MAX_QUANTITY}` })
  .int(`Quantity must be a whole number from 1 to ${BOTTLE_MAX_QUANTITY}`)
  .min(1, `Quantity must be a whole number from 1 to ${BOTTLE_MAX_QUANTITY}`)
  .max(BOTTLE_MAX_QUANTITY, `Quantity must be a whole number from 1 to ${BOTTLE_MAX_QUANTITY}`);
const sizeField = z
  .number({ error: 'Size must be a whole number of ml from 1 to 30000' })
  .int('Size must be a whole number of ml from 1 to 30000')
  .min(1, 'Size must be a whole number of ml from 1 to 30000')
  .max(30_000, 'Size must be a whole number of ml from 1 to 30000');
export const vintageField = z
  .number({ error: 'Vintage must be a year from 1800 to 2200' })
  .int('Vintage must be a year from 1800 to 2200')
  .min(1800, 'Vintage must be a year from 1800 to 2200')
  .max(2200, 'Vintage must be a year from 1800 to 2200');
const priceField = z
  .number({ error: 'Price must be a number from 0 to 1000000' })
  .min(0, 'Price must be a number from 0 to 1000000')
  .max(1_000_000, 'Price must be a number from 0 to 1000000')
  .transform((p) => Math.round(p * 100) / 100);
const currencyField = z
  .string({ error: 'Currency must be a three-letter code such as EUR' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter code such as EUR');
const bottleNote = z
  .string({ error: 'Note must be text' })
  .trim()
  .max(BOTTLE_NOTE_MAX_LENGTH, `Note must be at most ${BOTTLE_NOTE_MAX_LENGTH} characters long`);

const bottleFields = {
  quantity: quantityField,
  sizeMl: sizeField,
  vintage: vintageField.nullable(),
  placeId: id('placeId').nullable(),
  purchasedOn: dayField('Purchase date').nullable(),
  price: priceField.nullable(),
  currency: currencyField.nullable(),
  note: bottleNote,
};

const PRICE_NEEDS_CURRENCY = 'Give the currency of the price';

/** POST /beverages/{id}/bottles: quantity 1 and 750 ml unless said; the rest optional. */
export const bottleCreateSchema = z
  .object({
    quantity: bottleFields.quantity.default(1),
    sizeMl: bottleFields.sizeMl.default(DEFAULT_BOTTLE_SIZE),
    vintage: bottleFields.vintage.optional(),
    placeId: bottleFields.placeId.optional(),
    purchasedOn: bottleFields.purchasedOn.optional(),
    price: bottleFields.price.optional(),
    currency: bottleFields.currency.optional(),
    note: bottleFields.note.optional(),
  })
  .strict()
  .refine((b) => b.price == null || b.currency != null, {
    message: PRICE_NEEDS_CURRENCY,
    path: ['currency'],
  });
export type BottleCreate = z.output<typeof bottleCreateSchema>;

/** PATCH /beverages/{id}/bottles/{bottleId}: any of the fields; null clears an optional one. */
export const bottleUpdateSchema = z
  .object({
    quantity: bottleFields.quantity.optional(),
    sizeMl: bottleFields.sizeMl.optional(),
    vintage: bottleFields.vintage.optional(),
    placeId: bottleFields.placeId.optional(),
    purchasedOn: bottleFields.purchasedOn.optional(),
    price: bottleFields.price.optional(),
    currency: bottleFields.currency.optional(),
    note: bottleFields.note.optional(),
  })
  .strict();
export type BottleUpdate = z.output<typeof bottleUpdateSchema>;

// ---- The cellar's figures and the view by place

/** An amount of money in one currency. */
export const moneySchema = z.object({ currency: z.string(), amount: z.number() });
export type Money = z.infer<typeof moneySchema>;

const count = z.number().int().nonnegative();

/**
 * GET /cellar: the caller's cellar in figures, for the cellar screen and the dashboard. Bottles
 * are counted by quantity; an entry 'In cellar' without bottle lines counts as one bottle, as
 * it always has.
 */
export const cellarSummarySchema = z.object({
  /** Entries in the cellar. */
  entries: count,
  bottles: count,
  byType: z.object({ WHISKEY: count, WINE: count, BEER: count }),
  /** Bottles by drinking window this year; those of entries without a window in none. */
  windows: z.object({ NOW: count, PAST: count, LATER: count }),
  /** Bottles by type and drinking window this year (for the cellar screen narrowed to a type). */
  windowsByType: z.object({
    WHISKEY: z.object({ NOW: count, PAST: count, LATER: count }),
    WINE: z.object({ NOW: count, PAST: count, LATER: count }),
    BEER: z.object({ NOW: count, PAST: count, LATER: count }),
  }),
  /** Entries in the cellar by drinking window this year, holding bottles or not. */
  entriesByWindow: z.object({ NOW: count, PAST: count, LATER: count }),
  /** The summed price of the bottles that have one, per currency, largest first. */
  value: z.array(moneySchema),
  /** Litres of the bottle lines, one decimal. */
  litres: z.number(),
  /** The current year the windows are judged by. */
  year: z.number().int(),
});
export type CellarSummary = z.infer<typeof cellarSummarySchema>;

/** One bottle line of the view by place, with the entry it belongs to. */
export const cellarBottleSchema = bottleSchema.extend({
  entry: z.object({
    id: z.number().int(),
    name: z.string(),
    type: z.enum(BEVERAGE_TYPES),
    subtype: z.string(),
    makerName: z.string(),
    photoPath: z.string().nullable(),
    drinkFrom: z.number().int().nullable(),
    drinkUntil: z.number().int().nullable(),
  }),
});
export type CellarBottle = z.infer<typeof cellarBottleSchema>;

/** How many bottle lines one page of GET /cellar/bottles holds at most. */
export const CELLAR_BOTTLES_MAX_LIMIT = 500;

/**
 * GET /cellar/bottles: the caller's bottle lines, by place (in the order of GET /cellar/places,
 * those without a place last), then entry name.
 */
export const cellarBottlesQuerySchema = z.object({
  placeId: z
    .string()
    .regex(/^(none|[1-9][0-9]{0,15})$/, 'placeId must be a place id or none')
    .optional()
    .meta({
      description:
        'A place id (its bottles and those of the places inside it), or `none` for the bottles without a place',
    }),
  type: z.enum(BEVERAGE_TYPES, { error: 'Type must be WHISKEY, WINE or BEER' }).optional(),
  window: z
    .enum(DRINK_WINDOWS, { error: 'window must be NOW, PAST or LATER' })
    .optional()
    .meta({ description: 'Only entries inside (NOW), past (PAST) or before (LATER) their window' }),
  limit: z
    .string()
    .regex(
      /^[1-9][0-9]{0,2}$/,
      `limit must be a whole number from 1 to ${CELLAR_BOTTLES_MAX_LIMIT}`,
    )
    .transform(Number)
    .refine(
      (n) => n <= CELLAR_BOTTLES_MAX_LIMIT,
      `limit must be a whole number from 1 to ${CELLAR_BOTTLES_MAX_LIMIT}`,
    )
    .optional()
    .meta({
      description: 'Bottle lines a page holds',
      ...integerQuery(1, CELLAR_BOTTLES_MAX_LIMIT),
    }),
  cursor: z.string().max(100, 'The cursor is not valid').optional(),
});
export type CellarBottlesQuery = z.output<typeof cellarBottlesQuerySchema>;

export const cellarBottlePageSchema = z.object({
  bottles: z.array(cellarBottleSchema),
  nextCursor: z.string().nullable(),
});
export type CellarBottlePage = z.infer<typeof cellarBottlePageSchema>;
