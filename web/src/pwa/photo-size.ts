/**
 * The arithmetic of making a photo smaller (downscale.ts), without the DOM, so it can be
 * unit-tested in Node.
 */

/** The longest side of a sent photo, as the server's own limit (src/media/images.ts). */
export const PHOTO_MAX_SIDE = 2048;

/** The longest side scaled to at most `max`, the aspect kept; never larger. */
export function fitInside(width: number, height: number, max: number) {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** `name` with a .jpg extension (the sent file is a JPEG). */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '');
  return `${base || 'photo'}.jpg`;
}

/** '420 KB', '3.1 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
