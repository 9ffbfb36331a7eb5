import { parse } from 'csv-parse/sync';
import { IMPORT_MAX_BYTES } from '../../contract/imports.ts';
import { badRequest, DomainError } from '../domain-error.ts';
import { columnName } from './formats/index.ts';
import { CELLAR_COUNT, bottlesOf, vivino, vivinoWineKey } from './formats/vivino.ts';
import { mergeBottles } from './grouped-rows.ts';
import { vintageOf, cell, type CsvRecord, type MapResult } from './rows.ts';
import { MAX_CSV_ROWS } from './csv-source.ts';
import { DAMAGED, openVaultZip, readZipFile, type VaultZip } from './zip-source.ts';

/** The files of Vivino's data download the import reads. */
export const VIVINO_WINE_LIST = 'full_wine_list.csv';
export const VIVINO_CELLAR = 'cellar.csv';

/** Whether a ZIP is Vivino's data download (it has the wine list or the cellar). */
export function isVivinoZip(source: VaultZip): boolean {
  return [...source.files.keys()].some((name) => {
    const base = name.slice(name.lastIndexOf('/') + 1);
    return base === VIVINO_WINE_LIST || base === VIVINO_CELLAR;
  });
}

/** The file of the ZIP with that name, at its top or in one folder (as unpacked and zipped again). */
function fileNamed(source: VaultZip, base: string) {
  for (const [name, entry] of source.files) {
    if (name === base || name.endsWith(`/${base}`)) return entry;
  }
  return undefined;
}

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252 (as a CSV upload is read). */
function textOf(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The rows of one CSV file of the ZIP, keyed by column name; [] when the ZIP lacks it. */
async function recordsOf(source: VaultZip, base: string): Promise<CsvRecord[]> {
  const entry = fileNamed(source, base);
  if (!entry) return [];
  const text = textOf(await readZipFile(source, entry, IMPORT_MAX_BYTES)).replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = [',', ';', '\t'].sort(
    (a, b) => firstLine.split(b).length - firstLine.split(a).length,
  )[0]!;
  let rows: string[][];
  try {
    rows = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true });
  } catch {
    throw badRequest(`${base} in the ZIP file could not be read as a CSV file`);
  }
  const columns = (rows[0] ?? []).map(columnName);
  const missing = vivino.required.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw badRequest(`${base} in the ZIP file lacks the columns ${missing.join(', ')}`);
  }
  if (rows.length - 1 > MAX_CSV_ROWS) {
    throw badRequest(
      `${base} has more than ${MAX_CSV_ROWS.toLocaleString('en')} rows: split it into smaller files`,
    );
  }
  return rows.slice(1).map((cells) => {
    const record: CsvRecord = {};
    columns.forEach((column, i) => {
      if (record[column] === undefined) record[column] = cells[i] ?? '';
    });
    return record;
  });
}

/**
 * The rows of Vivino's data download: every wine of full_wine_list.csv (tried, with its
 * drinking window), then the wines of cellar.csv the list lacks (to try). A wine of cellar.csv
 * that is in the list (same winery, name and vintage) gives its 'User cellar count' bottles to
 * the list's first row of it, which is then in the cellar.
 */
export async function vivinoZipRows(source: VaultZip): Promise<MapResult[]> {
  const list = await recordsOf(source, VIVINO_WINE_LIST);
  const cellar = await recordsOf(source, VIVINO_CELLAR);
  const rows = list.map((record) => vivino.map(record));
  const firstOf = new Map<string, number>();
  list.forEach((record, i) => {
    const key = vivinoWineKey(record);
    if (!firstOf.has(key) && rows[i]!.ok === true) firstOf.set(key, i);
  });
  for (const record of cellar) {
    const at = firstOf.get(vivinoWineKey(record));
    const target = at === undefined ? undefined : rows[at];
    if (target?.ok !== true) {
      rows.push(vivino.map({ ...record, [CELLAR_COUNT]: record[CELLAR_COUNT] ?? '' }));
      continue;
    }
    const bottles = bottlesOf(record, vintageOf(cell(record, 'vintage')));
    target.row.bottles = mergeBottles([...(target.row.bottles ?? []), ...bottles]);
    target.row.inCellar ||= bottles.length > 0;
  }
  return rows;
}

/** Checks Vivino's data download completely; answers its number of rows. */
export async function inspectVivinoZip(file: string): Promise<number> {
  const source = await openVaultZip(file);
  try {
    const rows = await vivinoZipRows(source);
    if (rows.length === 0) throw badRequest("Vivino's files in the ZIP hold no wines");
    return rows.length;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw badRequest(DAMAGED);
  } finally {
    source.zip.close();
  }
}
