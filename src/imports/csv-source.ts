import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { parse, type Options } from 'csv-parse';
import type { ImportFormat } from '../../contract/imports.ts';
import { badRequest, DomainError } from '../domain-error.ts';
import { columnName, CSV_FORMATS, csvFormatFor, type CsvFormat } from './formats/index.ts';
import type { CsvRecord } from './rows.ts';

/** More rows than this in one file are refused: split the file. */
export const MAX_CSV_ROWS = 100_000;

/**
 * How a CSV file's bytes are text: UTF-16 when it starts with a UTF-16 byte order mark (Excel's
 * "Unicode text"), UTF-8 (with or without a byte order mark) when the whole file is valid
 * UTF-8, else Windows-1252 (CellarTracker's classic export, Excel on Windows), whose every byte
 * is a character: 'Château' survives either way.
 */
export type CsvEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

export interface CsvLayout {
  format: CsvFormat;
  encoding: CsvEncoding;
  delimiter: string;
  columns: string[];
  /** Data rows under the header. */
  total: number;
}

const NOT_A_TABLE =
  'This file is neither a CSV file nor a ZIP exported by a vault. Choose the CSV export of Untappd, Vivino or CellarTracker, a CSV in the generic template, or the ZIP of "Export my vault".';

function parserOptions(delimiter: string): Options {
  return {
    bom: true,
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: 256 * 1024,
  };
}

/**
 * The delimiter of the header line (comma, semicolon or tab, whichever it has most of), or
 * a refusal when the start of the file is binary.
 */
async function sniff(file: string, encoding: CsvEncoding): Promise<string> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead);
    if (bytesRead === 0) throw badRequest('The file is empty');
    if (!encoding.startsWith('utf-16') && head.includes(0)) throw badRequest(NOT_A_TABLE);
    const firstLine = new TextDecoder(encoding).decode(head).split(/\r?\n/, 1)[0] ?? '';
    const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length] as const);
    counts.sort((a, b) => b[1] - a[1]);
    return counts[0]![1] > 1 ? counts[0]![0] : ',';
  } finally {
    await handle.close();
  }
}

/** The file's byte order mark, if it is a UTF-16 one. */
async function utf16Of(file: string): Promise<CsvEncoding | null> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    if (bytesRead < 2) return null;
    if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
    if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
    return null;
  } finally {
    await handle.close();
  }
}

/**
 * The file's encoding: UTF-16 by its byte order mark, else whether the whole file is valid
 * UTF-8, read as a stream (a file may go wrong late).
 */
async function encodingOf(file: string): Promise<CsvEncoding> {
  const utf16 = await utf16Of(file);
  if (utf16) return utf16;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of fs.createReadStream(file)) {
      decoder.decode(chunk as Buffer, { stream: true });
    }
    decoder.decode();
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The file's text as UTF-8 bytes, for the CSV parser. */
function textOf(file: string, encoding: CsvEncoding | undefined): Readable {
  const bytes = fs.createReadStream(file);
  if (encoding === undefined || encoding === 'utf-8') return bytes;
  // A UTF-16 decoder drops the byte order mark and keeps a character split across chunks.
  const decoder = new TextDecoder(encoding);
  return bytes.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        done(null, decoder.decode(chunk, { stream: true }));
      },
      flush(done) {
        done(null, decoder.decode());
      },
    }),
  );
}

function unreadable(error: unknown): Error {
  const line = (error as { lines?: number }).lines;
  return badRequest(
    `The CSV file could not be read${line ? ` near line ${line}` : ''}: check that it is a CSV file saved as text`,
  );
}

function describeColumns(format: CsvFormat): string {
  return format.required.join(', ');
}

/**
 * Reads a whole CSV file once (streaming) to find its format and count its rows; refuses a
 * file that is not CSV, has unknown or missing columns, breaks off half-way, has no rows, or
 * has too many. Nothing is stored: the job reads the file again.
 */
export async function inspectCsv(file: string, asked: ImportFormat): Promise<CsvLayout> {
  const encoding = await encodingOf(file);
  const delimiter = await sniff(file, encoding);
  let columns: string[] | null = null;
  let total = 0;
  const parser = textOf(file, encoding).pipe(parse(parserOptions(delimiter)));
  let format: CsvFormat | undefined;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (columns === null) {
        columns = record.map(columnName);
        const found = csvFormatFor(asked, columns);
        if ('missing' in found) {
          parser.destroy();
          if (found.format) {
            throw badRequest(
              `This file does not have the columns of the chosen format: ${found.missing.join(', ')} missing`,
            );
          }
          throw badRequest(
            `The columns of this file were not recognized. Expected the header row of one of: ${CSV_FORMATS.map(
              (f) => `${f.id} (${describeColumns(f)})`,
            ).join('; ')}.`,
          );
        }
        format = found.format;
        continue;
      }
      if (++total > MAX_CSV_ROWS) {
        parser.destroy();
        throw badRequest(
          `The file has more than ${MAX_CSV_ROWS.toLocaleString('en')} rows: split it into smaller files`,
        );
      }
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw unreadable(error);
  }
  if (!columns || !format) throw badRequest('The file is empty');
  if (total === 0) throw badRequest('The file has a header row but no rows under it');
  return { format, encoding, delimiter, columns, total };
}

/** The data rows of a CSV file from the `from`-th (0-based), each keyed by its column names. */
export async function* csvRecords(
  file: string,
  layout: Pick<CsvLayout, 'delimiter' | 'columns'> & { encoding?: CsvEncoding },
  from: number,
): AsyncGenerator<CsvRecord> {
  const parser = textOf(file, layout.encoding).pipe(
    parse({ ...parserOptions(layout.delimiter), from_line: 1 }),
  );
  let index = -1; // the header
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (index++ < from) continue;
      const record: CsvRecord = {};
      layout.columns.forEach((column, i) => {
        if (record[column] === undefined) record[column] = cells[i];
      });
      yield record;
    }
  } finally {
    parser.destroy();
  }
}
