import { z } from 'zod';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES } from './enums.ts';

/**
 * The vault's export: a ZIP (GET /api/export, `npm run vault -- export`) holding
 *   entries.csv   one row per entry, for spreadsheets (EXPORT_CSV_COLUMNS)
 *   entries.json  the same, complete and machine-readable: `vaultExportSchema`
 *   cellar.json   places, bottle lines and bottle events (contract/export-cellar.ts)
 *   tastings.json the tastings of the entries (contract/export-cellar.ts)
 *   photos/<file>.jpg  each entry's and tasting's photo, named as in its `photo`
 * The import of the vault's own ZIP parses entries.json with `vaultExportSchema`. Version 2
 * added cellar.json, tastings.json and the entries' drinking windows; a version 1 export (which
 * has none of them) still imports.
 */
export const EXPORT_FORMAT = 'the-vault-export';
export const EXPORT_VERSION = 2;

/** Where the JSON and the photos sit inside the ZIP. */
export const EXPORT_JSON_NAME = 'entries.json';
export const EXPORT_CSV_NAME = 'entries.csv';
export const EXPORT_PHOTOS_DIR = 'photos/';

/** A photo's path inside the ZIP: 'photos/<hex>.jpg' (no folders, no '..'). */
export const exportPhotoPathSchema = z
  .string()
  .regex(/^photos\/[A-Za-z0-9_-]{1,100}\.jpg$/, 'A photo must be named photos/<name>.jpg');

/** An ISO 8601 date and time in UTC, e.g. '2026-11-23T15:51:09.000Z'. */
const isoDateSchema = z.iso.datetime();

/** One entry of the exporting user. */
export const exportEntrySchema = z.object({
  /** The entry's id in the vault it came from (not kept on import). */
  id: z.number().int(),
  type: z.enum(BEVERAGE_TYPES),
  name: z.string(),
  subtype: z.string(),
  /** '' when none. */
  maker: z.string(),
  status: z.enum(BEVERAGE_STATUSES),
  /** 0 to 5; 0 while to-try. */
  rating: z.number().int().min(0).max(5),
  /** '' when none. */
  notes: z.string(),
  inCellar: z.boolean(),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
  /** The photo's path inside the ZIP ('photos/<hex>.jpg'); null when the entry has none. */
  photo: exportPhotoPathSchema.nullable(),
  /** Usernames of the local users the entry is shared with. */
  sharedWith: z.array(z.string()),
  /**
   * Who may see the entry (PRIVATE, FOLLOWERS or MEMBERS) and whether it goes to the fediverse;
   * left out by vaults that predate per-entry visibility.
   */
  visibility: z.string().optional(),
  federated: z.boolean().optional(),
  /** The drinking window, years (null: open); left out by version 1 exports. */
  drinkFrom: z.number().int().min(1800).max(2200).nullable().optional(),
  drinkUntil: z.number().int().min(1800).max(2200).nullable().optional(),
});
export type ExportEntry = z.infer<typeof exportEntrySchema>;

/** entries.json. */
export const vaultExportSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.union([z.literal(1), z.literal(EXPORT_VERSION)]),
  exportedAt: isoDateSchema,
  /** The user whose vault this is. */
  user: z.object({ username: z.string(), fullName: z.string() }),
  entries: z.array(exportEntrySchema),
});
export type VaultExport = z.infer<typeof vaultExportSchema>;

/** The columns of entries.csv, in order (the header row). */
export const EXPORT_CSV_COLUMNS = [
  'id',
  'type',
  'name',
  'subtype',
  'maker',
  'status',
  'rating',
  'notes',
  'in_cellar',
  'created_at',
  'updated_at',
  'photo',
  'shared_with',
  'visibility',
  'federated',
  'drink_from',
  'drink_until',
] as const;

/** GET /api/export?username=NAME: an admin exports another user's vault (else one's own). */
export const exportQuerySchema = z.object({
  username: z.string().trim().min(1, 'username must not be empty').max(64).optional().meta({
    description:
      "Another user's vault: for an admin signed in by session (a token exports its own user's)",
  }),
});
