import { validatePublicUrl } from '@fedify/fedify';
import { getLogger } from '@logtape/logtape';
import { MAX_IMAGE_BYTES } from '../../src/media/images.ts';
import { readBounded } from '../outbound.ts';

const logger = getLogger(['vault', 'federation', 'inbox']);

/** The bounds of one photo download (redirects included). */
export const PHOTO_FETCH_LIMITS = {
  /** The whole download, redirects and body included, must finish within this. */
  timeoutMs: 15_000,
  /** The vault's own limit for an uploaded photo: a larger body is refused, unread or cut off. */
  maxBytes: MAX_IMAGE_BYTES,
  maxRedirects: 3,
} as const;

export interface PhotoFetchOptions {
  /** VAULT_ALLOW_PRIVATE_ADDRESS: whether private, loopback and link-local hosts may be fetched. */
  allowPrivateAddress: boolean;
  userAgent: string;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

/**
 * Downloads a received Note's photo (the attachment's URL), or gives undefined: an image is no
 * JSON-LD document, so the guarded document loader (outbound.ts) cannot fetch it, and this is its
 * counterpart for bytes. Every URL (the first and each redirect target) must be http(s) and pass
 * Fedify's private-address check unless allowed; the whole download is aborted after
 * `timeoutMs`; a body over `maxBytes` is refused by its Content-Length before reading or cut
 * off while reading. Nothing here judges the bytes: src/media/images.ts does, as for an upload.
 * Never throws; a failure is logged and is no photo.
 */
export async function fetchPhoto(
  url: string,
  options: PhotoFetchOptions,
): Promise<Uint8Array | undefined> {
  const timeoutMs = options.timeoutMs ?? PHOTO_FETCH_LIMITS.timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await download(url, options, signal);
  } catch (error) {
    logger.info('Could not fetch the photo {url}: {reason}', {
      url,
      reason: signal.aborted ? `timed out after ${timeoutMs} ms` : reasonOf(error),
    });
    return undefined;
  }
}

async function download(
  url: string,
  options: PhotoFetchOptions,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? PHOTO_FETCH_LIMITS.maxBytes;
  const maxRedirects = options.maxRedirects ?? PHOTO_FETCH_LIMITS.maxRedirects;
  let current = new URL(url);
  for (let redirects = 0; ; redirects++) {
    if (current.protocol !== 'https:' && current.protocol !== 'http:') {
      throw new Error(`not an http(s) URL: ${current.protocol}`);
    }
    if (!options.allowPrivateAddress) await validatePublicUrl(current.href);
    const response = await fetch(current, {
      redirect: 'manual',
      signal,
      headers: { accept: 'image/*', 'user-agent': options.userAgent },
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (redirects >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
      current = new URL(location, current);
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    return readBounded(response, maxBytes, () => new Error(`larger than ${maxBytes} bytes`));
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
