import type { webcrypto } from 'node:crypto';
import {
  createActivityPubRequest,
  FetchError,
  getRemoteDocument,
  preloadedContexts,
  signRequest,
  validatePublicUrl,
  type ActorKeyPair,
  type Context,
  type DocumentLoader,
  type RemoteDocument,
} from '@fedify/fedify';
import { getLogger } from '@logtape/logtape';
import { INSTANCE_ACTOR } from './paths.ts';

const logger = getLogger(['vault', 'federation', 'outbound']);

/** The bounds of one document fetch (redirects included). */
export const OUTBOUND_LIMITS = {
  /** The whole fetch, redirects and body included, must finish within this. */
  timeoutMs: 10_000,
  /** A response body larger than this is refused (actors and notes are a few kilobytes). */
  maxBytes: 1024 * 1024,
  /** Redirects followed; each target is checked like the first URL. */
  maxRedirects: 5,
} as const;

/** A URL on a server an admin blocked: nothing is fetched from it. */
export class BlockedServerError extends Error {
  readonly domain: string;
  constructor(domain: string) {
    super(`${domain} is a blocked server; this vault does not contact it.`);
    this.name = 'BlockedServerError';
    this.domain = domain;
  }
}

export interface SigningKey {
  keyId: URL;
  privateKey: webcrypto.CryptoKey;
}

export interface GuardedLoaderOptions {
  /** Signs every GET (draft-cavage HTTP Signatures, as Mastodon expects) with this key. */
  key: SigningKey;
  /** VAULT_ALLOW_PRIVATE_ADDRESS: whether private, loopback and link-local hosts may be fetched. */
  allowPrivateAddress: boolean;
  userAgent: string;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Blocked servers (src/domain-blocks/): a URL on one is refused before it is fetched. */
  blocks?: { blockOf(url: string | URL): string | undefined } | undefined;
  /**
   * The address check every URL (first and redirect targets) passes before it is fetched:
   * Fedify's validatePublicUrl unless private addresses are allowed. Tests replace it.
   */
  checkUrl?: (url: string) => Promise<void>;
}

/**
 * A JSON-LD document loader for lookups made on a user's behalf (WebFinger's actor, a remote
 * actor, a Note). Fedify's own authenticated loader already refuses private addresses and
 * checks redirects, but sets no timeout and reads any body whole; this one does all four:
 * every URL (the first and each redirect target) is refused on a blocked server
 * (BlockedServerError) and passes the private-address guard unless allowed, the whole fetch is aborted after `timeoutMs`, a body over `maxBytes` is refused
 * (by Content-Length before reading, or while reading), and at most `maxRedirects` redirects
 * are followed. Errors are Fedify's FetchError (HTTP status, size, timeout, too many
 * redirects) or UrlError (a refused address).
 */
export function createGuardedDocumentLoader(options: GuardedLoaderOptions): DocumentLoader {
  const timeoutMs = options.timeoutMs ?? OUTBOUND_LIMITS.timeoutMs;
  const maxBytes = options.maxBytes ?? OUTBOUND_LIMITS.maxBytes;
  const maxRedirects = options.maxRedirects ?? OUTBOUND_LIMITS.maxRedirects;
  const checkUrl =
    options.checkUrl ?? (options.allowPrivateAddress ? async () => {} : validatePublicUrl);

  const load: DocumentLoader = async (url, loadOptions) => {
    if (url in preloadedContexts) {
      return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    }
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (loadOptions?.signal) signals.push(loadOptions.signal);
    const signal = AbortSignal.any(signals);
    try {
      return await fetchDocument(url, signal);
    } catch (error) {
      if (signal.aborted && !(error instanceof FetchError)) {
        throw new FetchError(url, `Timed out after ${timeoutMs} ms: ${url}`);
      }
      throw error;
    }
  };

  async function fetchDocument(url: string, signal: AbortSignal): Promise<RemoteDocument> {
    let current = new URL(url);
    for (let redirects = 0; ; redirects++) {
      const blocked = options.blocks?.blockOf(current);
      if (blocked) throw new BlockedServerError(blocked);
      await checkUrl(current.href);
      const request = await signRequest(
        createActivityPubRequest(current.href, { userAgent: options.userAgent }),
        options.key.privateKey,
        options.key.keyId,
        { spec: 'draft-cavage-http-signatures-12' },
      );
      logger.debug('GET {url} signed as {keyId}', {
        url: current.href,
        keyId: options.key.keyId.href,
      });
      const response = await fetch(request, { redirect: 'manual', signal });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (redirects >= maxRedirects) {
          throw new FetchError(current, `More than ${maxRedirects} redirects: ${url}`);
        }
        current = new URL(location, current);
        continue;
      }
      const body = await readBounded(
        response,
        maxBytes,
        () => new FetchError(current, `The response is larger than ${maxBytes} bytes`),
      );
      const bounded = new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, {
        status: response.status,
        headers: response.headers,
      });
      return getRemoteDocument(current.href, bounded, load);
    }
  }

  return load;
}

const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * The loader for lookups made on behalf of `username` (the follow dialog's WebFinger and actor
 * fetches), signed with that user's RSA key so that servers in authorized-fetch mode answer.
 * A user without keys (not federated) borrows the instance actor's key.
 */
export async function userDocumentLoader(
  ctx: Context<void>,
  username: string,
  options: Omit<GuardedLoaderOptions, 'key'>,
): Promise<DocumentLoader> {
  const key =
    rsaKeyOf(await ctx.getActorKeyPairs(username)) ??
    rsaKeyOf(await ctx.getActorKeyPairs(INSTANCE_ACTOR));
  if (!key) throw new Error('The instance actor has no RSA key.');
  return createGuardedDocumentLoader({ ...options, key });
}

function rsaKeyOf(pairs: ActorKeyPair[]): SigningKey | undefined {
  const pair = (pairs as (ActorKeyPair & webcrypto.CryptoKeyPair)[]).find(
    (candidate) => candidate.privateKey.algorithm.name === 'RSASSA-PKCS1-v1_5',
  );
  return pair ? { keyId: pair.keyId, privateKey: pair.privateKey } : undefined;
}

/**
 * The body, refused with `tooLarge()` if it is (or announces itself as) larger than maxBytes:
 * a declared length is checked before reading, and the reading stops at the limit.
 */
export async function readBounded(
  response: Response,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
