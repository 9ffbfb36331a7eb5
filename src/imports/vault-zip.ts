import {
  EXPORT_CELLAR_NAME,
  EXPORT_TASTINGS_NAME,
  vaultCellarSchema,
  vaultTastingsSchema,
  type VaultCellar,
  type VaultTastings,
} from '../../contract/export-cellar.ts';
import type { VaultExport } from '../../contract/export.ts';
import { badRequest, DomainError } from '../domain-error.ts';
import { MAX_IMAGE_BYTES } from '../media/images.ts';
import {
  DAMAGED,
  headOf,
  looksLikeImage,
  openVaultZip,
  readVaultExport,
  readZipJson,
  type VaultZip,
} from './zip-source.ts';

/** Everything a vault ZIP says: entries.json, and cellar.json and tastings.json when it has them. */
export interface VaultFiles {
  data: VaultExport;
  cellar: VaultCellar | null;
  tastings: VaultTastings | null;
}

/**
 * The JSON files of a vault ZIP, each checked against its schema. An export of version 1 has
 * no cellar.json or tastings.json; one of version 2 has both.
 */
export async function readVaultFiles(source: VaultZip): Promise<VaultFiles> {
  const data = await readVaultExport(source);
  const optional = <T>(name: string, read: () => Promise<T>) =>
    source.files.has(name) ? read() : Promise.resolve(null);
  return {
    data,
    cellar: await optional(EXPORT_CELLAR_NAME, () =>
      readZipJson(source, EXPORT_CELLAR_NAME, vaultCellarSchema),
    ),
    tastings: await optional(EXPORT_TASTINGS_NAME, () =>
      readZipJson(source, EXPORT_TASTINGS_NAME, vaultTastingsSchema),
    ),
  };
}

/** Refuses a photo a row names that the ZIP lacks, or that is too large or not an image. */
async function checkPhoto(source: VaultZip, photo: string, of: string): Promise<void> {
  const file = source.files.get(photo);
  if (!file) throw badRequest(`The ZIP file lacks ${photo}, the photo of ${of}`);
  if (file.uncompressedSize > MAX_IMAGE_BYTES) {
    throw badRequest(`${photo} in the ZIP file is larger than a photo may be`);
  }
  if (!looksLikeImage(await headOf(source, file))) {
    throw badRequest(`${photo} in the ZIP file is not an image; nothing was imported`);
  }
}

/**
 * Checks a vault ZIP completely before a job is made of it: its directory, its JSON files, and
 * that every photo an entry or a tasting names is in the ZIP and is an image. Answers the
 * number of entries.
 */
export async function inspectVaultZip(file: string): Promise<number> {
  const source = await openVaultZip(file);
  try {
    const { data, tastings } = await readVaultFiles(source);
    if (data.entries.length === 0) throw badRequest('The export holds no entries');
    for (const entry of data.entries) {
      if (entry.photo) await checkPhoto(source, entry.photo, `"${entry.name}"`);
    }
    for (const tasting of tastings?.tastings ?? []) {
      if (tasting.photo)
        await checkPhoto(source, tasting.photo, `a tasting of ${tasting.tastedOn}`);
    }
    return data.entries.length;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw badRequest(DAMAGED);
  } finally {
    source.zip.close();
  }
}
