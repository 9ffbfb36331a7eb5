import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { DomainError, badRequest } from '../domain-error.ts';

/** One re-encoding profile: bottle photos are large, avatars small. */
export interface ImageProfile {
  /** What the image is called in messages: 'photo', 'avatar'. */
  label: string;
  maxSide: number;
}

export const PHOTO: ImageProfile = { label: 'photo', maxSide: 2048 };
export const AVATAR: ImageProfile = { label: 'avatar', maxSide: 512 };

export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
/** Header dimensions above this are refused before any pixel is decoded (image bombs). */
export const MAX_IMAGE_PIXELS = 50_000_000;

/** Judged by content (sharp reads the header), never by file name or declared type. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'heif']);
const ACCEPTED_LIST = 'JPEG, PNG, WebP or AVIF';

/** Stored files are named by 128 random bits; the stored path is 'media/<name>'. */
const STORED_NAME = /^[a-f0-9]{32}\.jpg$/;
const PATH_PREFIX = 'media/';

sharp.cache(false);

/**
 * The one place images enter the vault: checks content, bounds size and pixels, auto-orients,
 * strips every piece of metadata (EXIF, GPS, XMP, ICC after conversion to sRGB), caps the
 * longest side and re-encodes to baseline JPEG (fast to encode, shown everywhere, and what
 * other fediverse servers accept) under a random name.
 */
export function createMediaStore(uploadsDir: string) {
  fs.mkdirSync(uploadsDir, { recursive: true });

  function fileFor(storedPath: string): string | undefined {
    if (!storedPath.startsWith(PATH_PREFIX)) return undefined;
    const name = storedPath.slice(PATH_PREFIX.length);
    return STORED_NAME.test(name) ? path.join(uploadsDir, name) : undefined;
  }

  return {
    /** Re-encodes and stores an uploaded image; returns its stored path ('media/…'). */
    async save(input: Uint8Array, profile: ImageProfile): Promise<string> {
      const output = await reencode(input, profile);
      const name = `${randomBytes(16).toString('hex')}.jpg`;
      const target = path.join(uploadsDir, name);
      const temp = `${target}.tmp`;
      await fs.promises.writeFile(temp, output, { flag: 'wx' });
      await fs.promises.rename(temp, target);
      return PATH_PREFIX + name;
    },

    /** Copies a stored image under a new name (for cloned entries). */
    async copy(storedPath: string): Promise<string | null> {
      const source = fileFor(storedPath);
      if (!source) return null;
      const name = `${randomBytes(16).toString('hex')}.jpg`;
      try {
        await fs.promises.copyFile(source, path.join(uploadsDir, name), fs.constants.COPYFILE_EXCL);
        return PATH_PREFIX + name;
      } catch {
        return null;
      }
    },

    /** Deletes a stored image; a missing file is not an error. */
    async remove(storedPath: string | null | undefined): Promise<void> {
      const file = storedPath ? fileFor(storedPath) : undefined;
      if (file) await fs.promises.rm(file, { force: true });
    },

    /** The file on disk for a request path's name, if it is one of ours and exists. */
    locate(name: string): string | undefined {
      const file = fileFor(PATH_PREFIX + name);
      return file && fs.existsSync(file) ? file : undefined;
    },
  };
}

export type MediaStore = ReturnType<typeof createMediaStore>;

async function reencode(input: Uint8Array, profile: ImageProfile): Promise<Buffer> {
  if (input.byteLength === 0) throw badRequest(`The ${profile.label} file is empty`);
  if (input.byteLength > MAX_IMAGE_BYTES) {
    throw new DomainError(413, `The ${profile.label} must be at most 15 MB`);
  }
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
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

function notAnImage(profile: ImageProfile): DomainError {
  return new DomainError(415, `The ${profile.label} must be a ${ACCEPTED_LIST} image`);
}
