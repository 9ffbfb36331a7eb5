import { stringify } from 'csv-stringify/sync';
import { EXPORT_CSV_COLUMNS, EXPORT_PHOTOS_DIR, type ExportEntry } from '../../contract/export.ts';
import type { ExportRow } from './repository.ts';

/** 'media/<name>.jpg' → 'photos/<name>.jpg', the photo's path inside the ZIP. */
export function photoNameInZip(storedPath: string): string {
  return EXPORT_PHOTOS_DIR + storedPath.slice(storedPath.lastIndexOf('/') + 1);
}

const visibilityOf = (row: ExportRow): string | undefined =>
  typeof row.visibility === 'string' ? row.visibility : undefined;

/** Whether the entry goes to the fediverse; absent from vaults before per-entry visibility. */
function federatedOf(row: ExportRow): boolean | undefined {
  const value = row.federated;
  return value === undefined || value === null ? undefined : Boolean(value);
}

const yearOf = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/**
 * A stored row as entries.json has it (contract/export.ts). `hasPhoto` says whether the photo's
 * file is there to go into the ZIP: an entry whose file is missing is exported without a photo.
 */
export function toExportEntry(row: ExportRow, hasPhoto: boolean): ExportEntry {
  const entry: ExportEntry = {
    id: row.id,
    type: row.type as ExportEntry['type'],
    name: row.name,
    subtype: row.subtype,
    maker: row.maker_name,
    status: row.status as ExportEntry['status'],
    rating: row.rating,
    notes: row.notes,
    inCellar: Boolean(row.in_cellar),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    photo: hasPhoto && row.photo_path ? photoNameInZip(row.photo_path) : null,
    sharedWith: row.shared_with ? row.shared_with.split('\n') : [],
  };
  const visibility = visibilityOf(row);
  const federated = federatedOf(row);
  if (visibility !== undefined) entry.visibility = visibility;
  if (federated !== undefined) entry.federated = federated;
  entry.drinkFrom = yearOf(row.drink_from);
  entry.drinkUntil = yearOf(row.drink_until);
  return entry;
}

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return, which some
 * strip before looking) as a formula: such a text cell gets a leading apostrophe, which
 * spreadsheets show as text and hide. Numbers and dates never start so.
 */
export function guardFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

function csvCells(entry: ExportEntry): string[] {
  return [
    String(entry.id),
    entry.type.toLowerCase(),
    guardFormula(entry.name),
    guardFormula(entry.subtype),
    guardFormula(entry.maker),
    entry.status === 'TRIED' ? 'tried' : 'to-try',
    String(entry.rating),
    guardFormula(entry.notes),
    yesNo(entry.inCellar),
    entry.createdAt,
    entry.updatedAt,
    entry.photo ?? '',
    guardFormula(entry.sharedWith.join(' ')),
    entry.visibility === undefined ? '' : guardFormula(entry.visibility.toLowerCase()),
    entry.federated === undefined ? '' : yesNo(entry.federated),
    entry.drinkFrom == null ? '' : String(entry.drinkFrom),
    entry.drinkUntil == null ? '' : String(entry.drinkUntil),
  ];
}

/**
 * The UTF-8 byte order mark and the header row: the mark makes spreadsheets read the file as
 * UTF-8 (names such as 'Château' stay whole); CSV readers that know UTF-8 skip it.
 */
export const CSV_HEAD =
  '\uFEFF' + stringify([[...EXPORT_CSV_COLUMNS]], { record_delimiter: 'windows' });

/** Rows of entries.csv, RFC 4180 (quoted where needed, CRLF line ends). */
export function csvRows(entries: ExportEntry[]): string {
  return entries.length === 0
    ? ''
    : stringify(entries.map(csvCells), { record_delimiter: 'windows' });
}
