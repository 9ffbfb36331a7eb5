import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { EXPORT_JSON_NAME } from '../../contract/export.ts';
import { IMPORT_MAX_BYTES, type ImportFormat } from '../../contract/imports.ts';
import { badRequest, DomainError } from '../domain-error.ts';
import type { JobState } from './store.ts';

/** What an upload turned out to be, once checked completely. */
export type CheckedUpload = Pick<JobState, 'format' | 'total' | 'source' | 'csv'>;

const tooLarge = () =>
  new DomainError(413, `The file is too large: at most ${IMPORT_MAX_BYTES / 1024 / 1024} MB`);

/**
 * Writes a request body to `file`, refusing it past IMPORT_MAX_BYTES. A body that breaks off is
 * a 400; a refusal raised while it streamed (the front door's bound) is passed on.
 */
export async function receiveBody(
  body: WebReadableStream<Uint8Array>,
  file: string,
): Promise<number> {
  let size = 0;
  const counted = Readable.fromWeb(body);
  counted.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > IMPORT_MAX_BYTES) counted.destroy(tooLarge());
  });
  try {
    await pipeline(counted, fs.createWriteStream(file));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof Error && error.cause instanceof DomainError) throw error.cause;
    throw badRequest('The file was not received completely');
  }
  if (size === 0) throw badRequest('The file is empty');
  return size;
}

async function isZip(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  } finally {
    await handle.close();
  }
}

/**
 * A ZIP is the vault's own export (it has entries.json) or Vivino's data download (it has
 * full_wine_list.csv or cellar.csv); anything else is refused.
 */
async function checkZip(file: string, asked: ImportFormat): Promise<CheckedUpload> {
  if (asked !== 'auto' && asked !== 'vault' && asked !== 'vivino') {
    throw badRequest(
      "This is a ZIP file: only a vault export or Vivino's data download can be imported as a ZIP",
    );
  }
  // The ZIP and CSV readers (yauzl, csv-parse) load with the first upload that needs them.
  const { openVaultZip } = await import('./zip-source.ts');
  const { isVivinoZip, inspectVivinoZip } = await import('./vivino-zip.ts');
  const source = await openVaultZip(file);
  const vivino = !source.files.has(EXPORT_JSON_NAME) && isVivinoZip(source);
  source.zip.close();
  if (vivino && asked !== 'vault') {
    return { format: 'vivino', total: await inspectVivinoZip(file), source: 'upload.zip' };
  }
  if (asked === 'vivino') {
    throw badRequest(`This ZIP file has neither of Vivino's ${VIVINO_FILES}`);
  }
  const { inspectVaultZip } = await import('./vault-zip.ts');
  return { format: 'vault', total: await inspectVaultZip(file), source: 'upload.zip' };
}

const VIVINO_FILES = 'full_wine_list.csv and cellar.csv';

/** Reads an uploaded file through once: its format, its rows, or why it cannot be imported. */
export async function checkUpload(file: string, asked: ImportFormat): Promise<CheckedUpload> {
  if (await isZip(file)) return checkZip(file, asked);
  if (asked === 'vault') {
    throw badRequest('A vault export is the ZIP file of "Export my vault"; this file is not a ZIP');
  }
  const { inspectCsv } = await import('./csv-source.ts');
  const layout = await inspectCsv(file, asked);
  return {
    format: layout.format.id,
    total: layout.total,
    source: 'upload.csv',
    csv: { delimiter: layout.delimiter, columns: layout.columns, encoding: layout.encoding },
  };
}
