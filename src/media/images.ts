import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Sharp from 'sharp';
import { IMAGE_MAX_BYTES } from '../../contract/form-files.ts';
import { DomainError, badRequest } from '../domain-error.ts';
import { createDeleter } from './deletion-hold.ts';
import { baselineSegments, isStoredForm } from './stored-form.ts';

/** One re-encoding profile: bottle photos are large, avatars small. */
export interface ImageProfile {
  /** What the image is called in messages: 'photo', 'avatar'. */
  label: string;
  maxSide: number;
  /** Sub-folder of the uploads folder (and of the /media path). */
  folder: '' | 'avatars/';
}

/** Bottle photos: served to signed-in users only. */
export const PHOTO: ImageProfile = { label: 'photo', maxSide: 2048, folder: '' };
/** Avatars: public (actors' icons must be fetchable by other servers), under random names. */
export const AVATAR: ImageProfile = { label: 'avatar', maxSide: 512, folder: 'avatars/' };

/** The most bytes of an image: the forms' image fields declare it (contract/form-files.ts). */
export const MAX_IMAGE_BYTES = IMAGE_MAX_BYTES;
/** Header dimensions above this are refused before any pixel is decoded (image bombs). */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Judged by content (sharp reads the header), never by file name or declared type. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'heif']);
const ACCEPTED_LIST = 'JPEG, PNG, WebP or AVIF';

/** Stored files are named by 128 random bits; the stored path is 'media/[avatars/]<name>'. */
const STORED_PATH = /^media\/((?:avatars\/)?)([a-f0-9]{32}\.jpg)$/;

const randomName = () => `${randomBytes(16).toString('hex')}.jpg`;

/** Names the vault gives files in the uploads folders: a stored image or one being written. */
export const STORED_FILE_NAME = /^[a-f0-9]{32}\.jpg(\.tmp)?$/;
export const TEMP_SUFFIX = '.tmp';

/**
 * sharp (libvips) is loaded with the first image, not at start: it adds about 20 MB and
 * 100 ms that a vault which is only read never needs.
 */
let sharpModule: Promise<typeof Sharp> | undefined;
function loadSharp(): Promise<typeof Sharp> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}

/**
 * The one place images enter the vault: checks content, bounds size and pixels, auto-orients,
 * strips every piece of metadata (EXIF, GPS, XMP, ICC after conversion to sRGB), caps the
 * longest side and re-encodes to baseline JPEG (fast to encode, shown everywhere, and what
 * other fediverse servers accept) under a random name.
 */
export function createMediaStore(uploadsDir: string) {
  fs.mkdirSync(path.join(uploadsDir, AVATAR.folder), { recursive: true });
  const deleter = createDeleter(uploadsDir);

  function fileFor(storedPath: string): string | undefined {
    const match = STORED_PATH.exec(storedPath);
    return match ? path.join(uploadsDir, match[1]!, match[2]!) : undefined;
  }

  return {
    /** Re-encodes and stores an uploaded image; returns its stored path ('media/…'). */
    async save(input: Uint8Array, profile: ImageProfile): Promise<string> {
      const output = await reencode(input, profile);
      const storedPath = `media/${profile.folder}${randomName()}`;
      await writeWhole(fileFor(storedPath)!, (temp) =>
        fs.promises.writeFile(temp, output, { flag: 'wx' }),
      );
      return storedPath;
    },

    /**
     * Stores an image byte for byte when it already is what the vault stores for `profile`
     * (src/media/stored-form.ts: a metadata-free baseline JPEG of the vault's own encoder,
     * within bounds, decoding cleanly), else re-encodes it as `save` does. For the import of
     * the vault's own export, whose photos thus come back unchanged.
     */
    async saveKeepingStoredForm(input: Uint8Array, profile: ImageProfile): Promise<string> {
      if (input.byteLength === 0 || input.byteLength > MAX_IMAGE_BYTES) {
        return this.save(input, profile);
      }
      const sharp = await loadSharp();
      if (!(await isStoredForm(sharp, input, profile, await encoderTables(profile)))) {
        return this.save(input, profile);
      }
      const storedPath = `media/${profile.folder}${randomName()}`;
      await writeWhole(fileFor(storedPath)!, (temp) =>
        fs.promises.writeFile(temp, input, { flag: 'wx' }),
      );
      return storedPath;
    },

    /** Copies a stored image under a new name (for cloned entries). */
    async copy(storedPath: string): Promise<string | null> {
      const source = fileFor(storedPath);
      if (!source) return null;
      const copyPath = `media/${PHOTO.folder}${randomName()}`;
      try {
        await writeWhole(fileFor(copyPath)!, (temp) =>
          fs.promises.copyFile(source, temp, fs.constants.COPYFILE_EXCL),
        );
        return copyPath;
      } catch {
        return null;
      }
    },

    /**
     * Deletes a stored image; a missing file is not an error. While a backup is being made the
     * deletion waits for it (src/media/deletion-hold.ts).
     */
    async remove(storedPath: string | null | undefined): Promise<void> {
      const file = storedPath ? fileFor(storedPath) : undefined;
      if (file) await deleter.remove(file);
    },

    /** The file on disk for a stored path ('media/…'), if it is one of ours and exists. */
    locate(storedPath: string): string | undefined {
      const file = fileFor(storedPath);
      return file && fs.existsSync(file) ? file : undefined;
    },
  };
}

export type MediaStore = ReturnType<typeof createMediaStore>;

/**
 * Writes `<target>.tmp` and renames it to `target`, so a stored name only ever holds a whole
 * image. A failed write removes its temporary file; one left by a crash is swept at the next
 * start (src/media/sweep.ts).
 */
async function writeWhole(target: string, write: (temp: string) => Promise<void>): Promise<void> {
  const temp = `${target}${TEMP_SUFFIX}`;
  try {
    await write(temp);
    await fs.promises.rename(temp, target);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

async function reencode(input: Uint8Array, profile: ImageProfile): Promise<Buffer> {
  if (input.byteLength === 0) throw badRequest(`The ${profile.label} file is empty`);
  if (input.byteLength > MAX_IMAGE_BYTES) {
    throw new DomainError(413, `The ${profile.label} must be at most 15 MB`);
  }
  const sharp = await loadSharp();
  let meta: Awaited<ReturnType<ReturnType<typeof Sharp>['metadata']>>;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw notAnImage(profile);
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) throw notAnImage(profile);
  const pixels = (meta.width ?? 0) * (meta.height ?? 0) * Math.max(1, meta.pages ?? 1);
  if (pixels === 0) throw notAnImage(profile);
  if (pixels > MAX_IMAGE_PIXELS) {
    throw badRequest(`The ${profile.label} is too large: at most 50 megapixels`);
  }
  try {
    return await sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', pages: 1 })
      .rotate()
      .resize({
        width: profile.maxSide,
        height: profile.maxSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest(`The ${profile.label} could not be read: is it a complete image?`);
  }
}

/** The quantization tables `reencode` writes, read off a small image it made (once). */
const tablesByProfile = new Map<ImageProfile, Promise<Buffer>>();
function encoderTables(profile: ImageProfile): Promise<Buffer> {
  let tables = tablesByProfile.get(profile);
  if (!tables) {
    tables = loadSharp()
      .then((sharp) =>
        sharp({ create: { width: 16, height: 16, channels: 3, background: '#7a3b1e' } })
          .png()
          .toBuffer(),
      )
      .then((sample) => reencode(sample, profile))
      .then((made) => baselineSegments(made)?.tables ?? Buffer.alloc(0));
    tablesByProfile.set(profile, tables);
  }
  return tables;
}

function notAnImage(profile: ImageProfile): DomainError {
  return new DomainError(415, `The ${profile.label} must be a ${ACCEPTED_LIST} image`);
}

/**
 * Runs a write that names a photo file already stored (`photoPath`, or null for none): if the
 * write throws, the file is removed before the error goes on, so no file is left that no row
 * names.
 */
export async function writeWithPhoto<T>(
  media: Pick<MediaStore, 'remove'>,
  photoPath: string | null,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await media.remove(photoPath);
    throw error;
  }
}
