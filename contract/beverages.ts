import { z } from 'zod';
import { conversationCountsSchema } from './conversation.ts';
import { DRINK_WINDOWS } from './cellar.ts';
import { entryBasicsSchema } from './entry-basics.ts';
import { booleanField, statusField, typeField } from './entry-fields.ts';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES, VISIBILITIES } from './enums.ts';
import { integerQuery } from './query-fields.ts';

/** A user an entry is shared with; `shareId` is what DELETE /beverages/{id}/share/{shareId} takes. */
export const shareUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  fullName: z.string(),
  shareId: z.number().int(),
  /** PENDING until the recipient adds it to their vault, then ACCEPTED. */
  status: z.enum(['PENDING', 'ACCEPTED']),
});
export type ShareUser = z.infer<typeof shareUserSchema>;

/**
 * The fields of an entry that only its owner is given: the owner's own settings. This is the one
 * list of them. The server keeps them out of the JSON it caches and shares between viewers and
 * adds them for the owner only (src/beverages/entry-fields.ts), so a field added here is left
 * out for everyone else, whatever the read path (test/api/owner-only-fields.test.ts).
 */
export const beverageOwnerFieldsSchema = z.object({
  /**
   * Whether it goes to the owner's fediverse followers (when the owner federates); never when
   * PRIVATE.
   */
  federated: z.boolean(),
  /**
   * How many bottles of it the owner keeps (the quantities of its bottle lines; 0 without any,
   * whatever the 'In cellar' flag says).
   */
  bottleCount: z.number().int(),
});
export type BeverageOwnerFields = z.infer<typeof beverageOwnerFieldsSchema>;
export type OwnerOnlyField = keyof BeverageOwnerFields;
/** The names of the owner-only fields. */
export const OWNER_ONLY_FIELDS: readonly OwnerOnlyField[] =
  beverageOwnerFieldsSchema.keyof().options;

/**
 * A beverage entry, as the viewer sees it: the owner-only fields are there in the owner's
 * answers only (absent, not null, for anyone else). `cheerCount`, `cheeredByMe` (whether the
 * viewer cheered it) and `commentCount` are its conversation (contract/conversation.ts).
 */
export const beverageSchema = z
  .object({
    id: z.number().int(),
    userId: z.number().int(),
    ...entryBasicsSchema.shape,
    /** 'media/<hex>.jpg', served at '/' + photoPath; null when there is no photo. */
    photoPath: z.string().nullable(),
    /** Who may see it: only the owner, the owner's followers, or every user of the vault. */
    visibility: z.enum(VISIBILITIES),
    createdAt: z.string(),
    isOwner: z.boolean(),
    ownerName: z.string(),
    sharedWithCurrentUser: z.boolean(),
    /** Whom the owner shared it with; only the owner and admins see this list (else []). */
    sharedWith: z.array(shareUserSchema),
    /** The drinking window: the first year to drink it; null when open. */
    /** How many tastings it has (GET /beverages/{id}/tastings lists them). */
    tastingCount: z.number().int(),
    drinkFrom: z.number().int().nullable(),
    /** The last year to drink it; null when open. */
    drinkUntil: z.number().int().nullable(),
  })
  .extend(conversationCountsSchema.shape)
  .extend(beverageOwnerFieldsSchema.partial().shape);
export type Beverage = z.infer<typeof beverageSchema>;

/** The most entries one page of GET /beverages holds. */
export const BEVERAGE_MAX_LIMIT = 200;

/** One page of GET /beverages: newest first; nextCursor is null on the last page. */
export const beveragePageSchema = z.object({
  beverages: z.array(beverageSchema),
  nextCursor: z.string().nullable(),
});
export type BeveragePage = z.infer<typeof beveragePageSchema>;

/**
 * GET /beverages?userId&type&status&q&cellar&window&placeId&limit&cursor: what the list is filtered on, every
 * field optional. Without userId: the caller's own entries and those shared with them.
 */
export const beverageQuerySchema = z.object({
  userId: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'userId must be a positive integer')
    .transform(Number)
    .optional()
    .meta({
      description: "Whose entries (those the caller may see); the caller's when left out",
      ...integerQuery(1),
    }),
  type: typeField.optional(),
  status: statusField.optional(),
  q: z
    .string()
    .max(200, 'Search text must be at most 200 characters long')
    .transform((v) => v.trim() || undefined)
    .optional()
    .meta({ description: 'Words to find in the name, subtype, maker or notes' }),
  cellar: booleanField('cellar')
    .optional()
    .meta({ description: 'Only the bottles kept at home (true) or the others (false)' }),
  window: z.enum(DRINK_WINDOWS, { error: 'window must be NOW, PAST or LATER' }).optional().meta({
    description:
      'Only entries inside (NOW), past (PAST) or before (LATER) their drinking window this year',
  }),
  placeId: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'placeId must be a place id')
    .transform(Number)
    .optional()
    .meta({
      description:
        "Only the caller's entries with a bottle in this place of theirs or a place inside it",
      ...integerQuery(1),
    }),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, `limit must be a whole number from 1 to ${BEVERAGE_MAX_LIMIT}`)
    .transform(Number)
    .refine(
      (n) => n <= BEVERAGE_MAX_LIMIT,
      `limit must be a whole number from 1 to ${BEVERAGE_MAX_LIMIT}`,
    )
    .optional()
    .meta({ description: 'Entries a page holds', ...integerQuery(1, BEVERAGE_MAX_LIMIT) }),
  cursor: z
    .string()
    .max(100, 'The cursor is not valid')
    .optional()
    .meta({ description: "The previous page's nextCursor" }),
});
/**
 * The filters of GET /beverages as values (a number, a boolean), as the server reads them and
 * the client keeps them; on the wire each one is text.
 */
export type BeverageQuery = z.output<typeof beverageQuerySchema>;

/**
 * POST /beverages/{id}/clone: the body is optional. `status` is the list the copy goes into
 * (TO_TRY when left out); nothing else is accepted.
 */
export const cloneBodySchema = z
  .object({
    status: z.enum(BEVERAGE_STATUSES, { error: 'Status must be TRIED or TO_TRY' }).optional(),
  })
  .strict();
export type CloneBody = z.infer<typeof cloneBodySchema>;

/** POST /beverages/{id}/share. */
export const shareBodySchema = z
  .object({
    userId: z
      .number({ error: 'userId must be a user id' })
      .int('userId must be a user id')
      .positive('userId must be a user id')
      .max(Number.MAX_SAFE_INTEGER, 'userId must be a user id'),
    message: z
      .string({ error: 'The message must be text' })
      .trim()
      .max(280, 'The message must be at most 280 characters long')
      .optional(),
  })
  .strict();
export type ShareBody = z.infer<typeof shareBodySchema>;

/** The answer of POST /beverages, PATCH, clone and share. */
export const beverageResponseSchema = z.object({ beverage: beverageSchema });

/** How many ids one PATCH /beverages/visibility takes; `all` changes more. */
export const MAX_VISIBILITY_IDS = 1000;

/**
 * PATCH /beverages/visibility: changes the visibility (and, optionally, whether they go to the
 * fediverse) of many of the caller's own entries at once: those of `ids`, or with `all`, every
 * entry (of a type or list when given).
 */
export const visibilityChangeSchema = z
  .object({
    visibility: z.enum(VISIBILITIES, {
      error: 'Visibility must be PRIVATE, FOLLOWERS or MEMBERS',
    }),
    federated: z.boolean({ error: 'federated must be true or false' }).optional(),
    ids: z
      .array(
        z
          .number({ error: 'ids must be entry ids' })
          .int('ids must be entry ids')
          .positive('ids must be entry ids')
          .max(Number.MAX_SAFE_INTEGER, 'ids must be entry ids'),
        { error: 'ids must be a list of entry ids' },
      )
      .min(1, 'Choose at least one entry')
      .max(
        MAX_VISIBILITY_IDS,
        `At most ${MAX_VISIBILITY_IDS} entries at once; use all to change every entry`,
      )
      .optional(),
    all: z
      .object({
        type: z.enum(BEVERAGE_TYPES, { error: 'Type must be WHISKEY, WINE or BEER' }).optional(),
        status: z.enum(BEVERAGE_STATUSES, { error: 'Status must be TRIED or TO_TRY' }).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((body) => (body.ids === undefined) !== (body.all === undefined), {
    message: 'Give either ids or all',
  });
export type VisibilityChange = z.infer<typeof visibilityChangeSchema>;

/** The answer of PATCH /beverages/visibility: how many entries changed. */
export const visibilityChangeResponseSchema = z.object({ updated: z.number().int() });
