/**
 * Photos are made smaller in the browser before they are sent: a 12 MP phone photo (3 to 8 MB)
 * becomes a JPEG of at most PHOTO_MAX_SIDE pixels on its longest side (a few hundred KB), which
 * uploads in seconds on a slow connection. The server re-encodes whatever arrives anyway (the
 * same longest side, white behind transparency, EXIF dropped), so nothing is lost by it.
 *
 * A file the browser cannot decode (HEIC in most browsers, or not an image at all) is sent as it
 * is, and the server judges it.
 */
import { PHOTO_MAX_SIDE, fitInside, jpegName } from './photo-size.ts';

/** Files at most this large whose longest side already fits are sent untouched. */
const SMALL_ENOUGH_BYTES = 1_500_000;
const JPEG_QUALITY = 0.85;
const SENT_AS_IS = /^image\/(jpeg|png|webp)$/i;

export interface Downscaled {
  file: File;
  /** The sent image's size, when the browser made it. */
  width?: number;
  height?: number;
  resized: boolean;
}

export async function downscalePhoto(file: File, maxSide = PHOTO_MAX_SIDE): Promise<Downscaled> {
  if (typeof createImageBitmap !== 'function') return { file, resized: false };
  let bitmap: ImageBitmap;
  try {
    // 'from-image': the photo is turned upright by its EXIF orientation before it is drawn.
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return { file, resized: false };
  }
  try {
    const { width, height } = fitInside(bitmap.width, bitmap.height, maxSide);
    const fits = width === bitmap.width && height === bitmap.height;
    if (fits && file.size <= SMALL_ENOUGH_BYTES && SENT_AS_IS.test(file.type)) {
      return { file, width, height, resized: false };
    }
    const blob = await encodeJpeg(bitmap, width, height);
    if (!blob || (fits && blob.size >= file.size)) return { file, resized: false };
    const resized = new File([blob], jpegName(file.name), {
      type: 'image/jpeg',
      lastModified: file.lastModified,
    });
    return { file: resized, width, height, resized: true };
  } finally {
    bitmap.close();
  }
}

async function encodeJpeg(
  bitmap: ImageBitmap,
  width: number,
  height: number,
): Promise<Blob | null> {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    draw(context, bitmap, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return null;
  draw(context, bitmap, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
}

function draw(
  context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D,
  bitmap: ImageBitmap,
  width: number,
  height: number,
) {
  // JPEG has no transparency: white behind it, as the server does.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
}
