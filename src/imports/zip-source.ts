import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { z } from 'zod';
import { EXPORT_JSON_NAME, vaultExportSchema, type VaultExport } from '../../contract/export.ts';
import { badRequest } from '../domain-error.ts';

/** The bounds of a vault ZIP, checked on its directory before anything is decompressed. */
export const ZIP_LIMITS = {
  /** entries.json, uncompressed (parsed whole: about 100,000 entries with long notes). */
  jsonBytes: 64 * 1024 * 1024,
  /** Everything, uncompressed. */
  totalBytes: 2 * 1024 * 1024 * 1024,
  files: 200_002,
  /** How much smaller than its content a file may be compressed (text rarely beats 20). */
  ratio: 200,
};

export const DAMAGED = 'The ZIP file is damaged or is not a ZIP exported by a vault';

export interface VaultZip {
  zip: ZipFile;
  files: Map<string, Entry>;
}

function open(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true },
      (error, zip) => (error ? reject(badRequest(DAMAGED)) : resolve(zip)),
    );
  });
}

function unsafeName(name: string): boolean {
  return name.startsWith('/') || name.includes('\\') || name.split('/').includes('..');
}

/**
 * Opens a ZIP and lists its files, refusing unsafe names (absolute paths, '..', backslashes:
 * yauzl checks these too), encrypted files, too many files, sizes over the bounds and
 * compression ratios no export has (a ZIP bomb), all from the central directory.
 */
export async function openVaultZip(file: string): Promise<VaultZip> {
  const zip = await open(file);
  const files = new Map<string, Entry>();
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (error: Error) =>
        reject(
          /path/.test(error.message)
            ? badRequest('The ZIP file holds a file name pointing outside it; nothing was imported')
            : badRequest(DAMAGED),
        ),
      );
      zip.on('end', () => resolve());
      zip.on('entry', (entry: Entry) => {
        const name = entry.fileName;
        if (unsafeName(name)) {
          reject(
            badRequest('The ZIP file holds a file name pointing outside it; nothing was imported'),
          );
          return;
        }
        if (entry.isEncrypted()) {
          reject(badRequest('The ZIP file is encrypted'));
          return;
        }
        total += entry.uncompressedSize;
        const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
        if (
          files.size >= ZIP_LIMITS.files ||
          total > ZIP_LIMITS.totalBytes ||
          (entry.uncompressedSize > 1024 * 1024 && ratio > ZIP_LIMITS.ratio)
        ) {
          reject(
            badRequest(
              'The ZIP file unpacks to far more than a vault export holds; nothing was imported',
            ),
          );
          return;
        }
        if (!name.endsWith('/')) files.set(name, entry);
        zip.readEntry();
      });
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  return { zip, files };
}

/** A file of the ZIP, whole, refused past `max` bytes (yauzl checks the declared size too). */
export function readZipFile(source: VaultZip, entry: Entry, max: number): Promise<Buffer> {
  if (entry.uncompressedSize > max) {
    return Promise.reject(badRequest(`${entry.fileName} in the ZIP file is too large`));
  }
  return new Promise((resolve, reject) => {
    source.zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(badRequest(DAMAGED));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) {
          stream.destroy();
          reject(badRequest(`${entry.fileName} in the ZIP file is too large`));
        } else chunks.push(chunk);
      });
      stream.on('error', () => reject(badRequest(DAMAGED)));
      stream.on('end', () => resolve(Buffer.concat(chunks, size)));
    });
  });
}

/** The first bytes of a file of the ZIP (to tell an image from something else). */
export function headOf(source: VaultZip, entry: Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    source.zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(badRequest(DAMAGED));
      let done = false;
      stream.once('data', (chunk: Buffer) => {
        done = true;
        stream.destroy();
        resolve(chunk.subarray(0, 16));
      });
      stream.on('error', () => {
        if (!done) reject(badRequest(DAMAGED));
      });
      stream.on('end', () => {
        if (!done) resolve(Buffer.alloc(0));
      });
    });
  });
}

/** JPEG, PNG, WebP, GIF, or HEIF/AVIF by their signatures. */
export function looksLikeImage(head: Buffer): boolean {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return true;
  const ascii = head.toString('latin1');
  return (
    ascii.startsWith('\x89PNG') ||
    ascii.startsWith('GIF8') ||
    (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') ||
    ascii.slice(4, 8) === 'ftyp'
  );
}

/** A JSON file of a vault ZIP, parsed and checked against its schema. */
export async function readZipJson<T>(
  source: VaultZip,
  name: string,
  schema: z.ZodType<T>,
): Promise<T> {
  const entry = source.files.get(name);
  if (!entry) {
    throw badRequest(
      `The ZIP file has no ${name}: it is not a vault export (nor Vivino's data download, which holds full_wine_list.csv or cellar.csv)`,
    );
  }
  const bytes = await readZipFile(source, entry, ZIP_LIMITS.jsonBytes);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw badRequest(`${name} in the ZIP file is not valid JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` (at ${issue.path.join('.')})` : '';
    throw badRequest(
      `${name} is not a vault export of a version this vault reads${where}: ${issue.message}`,
    );
  }
  return parsed.data;
}

/** entries.json of a vault ZIP, parsed and checked against the export's schema. */
export function readVaultExport(source: VaultZip): Promise<VaultExport> {
  return readZipJson(source, EXPORT_JSON_NAME, vaultExportSchema);
}
