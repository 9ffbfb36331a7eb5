import type { ImportFormat } from '../../../contract/imports.ts';
import { cellarTracker } from './cellartracker.ts';
import type { CsvFormat } from './format.ts';
import { generic } from './generic.ts';
import { untappd } from './untappd.ts';
import { vivino } from './vivino.ts';

export type { CsvFormat } from './format.ts';

/** The CSV formats, in the order `auto` tries them (the generic template last). */
export const CSV_FORMATS: readonly CsvFormat[] = [untappd, vivino, cellarTracker, generic];

/** A header cell as formats name columns: trimmed, lower case, a byte-order mark dropped. */
export function columnName(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();
}

/** The columns a format needs that a header lacks. */
export function missingColumns(format: CsvFormat, columns: readonly string[]): string[] {
  return format.required.filter((c) => !columns.includes(c));
}

/** The format a header row is in: the one asked for, or the first whose columns it has. */
export function csvFormatFor(
  asked: ImportFormat,
  columns: readonly string[],
): { format: CsvFormat } | { missing: string[]; format?: CsvFormat } {
  if (asked !== 'auto') {
    const format = CSV_FORMATS.find((f) => f.id === asked);
    if (!format) return { missing: [] };
    const missing = missingColumns(format, columns);
    return missing.length ? { missing, format } : { format };
  }
  const format = CSV_FORMATS.find((f) => missingColumns(f, columns).length === 0);
  return format ? { format } : { missing: [] };
}
