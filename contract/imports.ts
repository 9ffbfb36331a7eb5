import { z } from 'zod';
import { integerQuery } from './query-fields.ts';

/**
 * Imports: POST /api/imports takes one file as the raw request body (a CSV, the vault's own
 * export ZIP or Vivino's data download ZIP, at most IMPORT_MAX_BYTES) and answers 202 with the job; the job runs in the
 * background, GET /api/imports/{id} tells how far it is, GET /api/imports/{id}/report lists
 * the rows' outcomes, a page at a time.
 */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/** The formats a file can be read as; `auto` recognizes it by its header row (or as a ZIP). */
export const IMPORT_FORMATS = [
  'auto',
  'vault',
  'untappd',
  'vivino',
  'cellartracker',
  'generic',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const IMPORT_FORMAT_LABELS: Record<Exclude<ImportFormat, 'auto'>, string> = {
  vault: "The vault's own export (ZIP)",
  untappd: 'Untappd check-ins (CSV)',
  vivino: 'Vivino data download (ZIP) or wine list (CSV)',
  cellartracker: 'CellarTracker inventory, cellar or consumed bottles (CSV)',
  generic: 'The generic CSV template',
};

/** The columns of the generic CSV template (type and name are required, the rest optional). */
export const GENERIC_TEMPLATE_COLUMNS = [
  'type',
  'name',
  'subtype',
  'maker',
  'status',
  'rating',
  'notes',
  'in_cellar',
  'quantity',
  'created_at',
  'visibility',
  'federated',
  'drink_from',
  'drink_until',
] as const;

/** POST /api/imports?format=…&fileName=… */
export const importQuerySchema = z
  .object({
    format: z
      .enum(IMPORT_FORMATS, {
        error: `format must be one of ${IMPORT_FORMATS.join(', ')}`,
      })
      .optional(),
    fileName: z.string().trim().max(200, 'The file name is too long').optional(),
  })
  .strict();
export type ImportQuery = z.infer<typeof importQuerySchema>;

export const IMPORT_STATUSES = ['QUEUED', 'RUNNING', 'DONE', 'FAILED'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** An import job, as its owner sees it. */
export const importJobSchema = z.object({
  id: z.string(),
  /** The format the file was read as (never `auto`). */
  format: z.enum(IMPORT_FORMATS),
  fileName: z.string(),
  status: z.enum(IMPORT_STATUSES),
  /** Rows (entries) in the file. */
  total: z.number().int(),
  /** Rows done so far: imported + duplicates + refused. */
  processed: z.number().int(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  refused: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Why a FAILED job stopped. */
  message: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;

export const importJobResponseSchema = z.object({ job: importJobSchema });
export const importJobListSchema = z.object({ jobs: z.array(importJobSchema) });

export const IMPORT_OUTCOMES = ['IMPORTED', 'DUPLICATE', 'REFUSED'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

/** One row of the file and what became of it. */
export const importReportRowSchema = z.object({
  /** The row's number among the file's data rows (1 = the first row under the header). */
  row: z.number().int(),
  name: z.string(),
  outcome: z.enum(IMPORT_OUTCOMES),
  /** Why a row was refused or counted as a duplicate; null when imported. */
  reason: z.string().nullable(),
});
export type ImportReportRow = z.infer<typeof importReportRowSchema>;

/** What the report lists: every row, or the rows not imported (duplicates and refused). */
export const IMPORT_REPORT_FILTERS = ['ALL', 'NOT_IMPORTED'] as const;
export type ImportReportFilter = (typeof IMPORT_REPORT_FILTERS)[number];

/** The most rows one page of a report holds (and how many it holds when not told). */
export const IMPORT_REPORT_PAGE_MAX = 1000;

const pageNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`)
    .meta(integerQuery(min, max));

/** GET /api/imports/{id}/report?outcome=NOT_IMPORTED&offset=0&limit=200 (all optional). */
export const importReportQuerySchema = z
  .object({
    outcome: z
      .enum(IMPORT_REPORT_FILTERS, {
        error: `outcome must be one of ${IMPORT_REPORT_FILTERS.join(', ')}`,
      })
      .optional(),
    offset: pageNumber('offset', 0, 999_999_999).optional(),
    limit: pageNumber('limit', 1, IMPORT_REPORT_PAGE_MAX).optional(),
  })
  .strict();
export type ImportReportQuery = z.infer<typeof importReportQuerySchema>;

/**
 * One page of the report: the rows done so far that match `outcome` (ALL when not given), in
 * file order, from `offset` (0), at most `limit` (IMPORT_REPORT_PAGE_MAX) of them.
 */
export const importReportSchema = z.object({
  job: importJobSchema,
  rows: z.array(importReportRowSchema),
  /** How many rows match, over every page. */
  total: z.number().int(),
  offset: z.number().int(),
  /** The offset of the next page; null on the last. */
  nextOffset: z.number().int().nullable(),
});
export type ImportReport = z.infer<typeof importReportSchema>;
