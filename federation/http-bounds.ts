import { Agent, setGlobalDispatcher } from 'undici';

/**
 * Bounds on every outbound HTTP request this process makes with fetch, Fedify's own included:
 * key fetches while verifying a delivery, JSON-LD contexts, WebFinger, and deliveries to other
 * servers' inboxes. Fedify sets no timeout on them and reads any body whole, so a remote server
 * that never answers, or answers forever, would hold them (and a queue worker) without end.
 * The lookups the vault makes itself have tighter bounds of their own (federation/outbound.ts:
 * 10 s, 1 MB; photos: src/media/images.ts's size limit).
 */
export interface HttpBounds {
  /** Establishing the connection (TLS included). */
  connectTimeoutMs: number;
  /** From sending the request to the response's headers. */
  headersTimeoutMs: number;
  /** Longest silence while the body arrives. */
  bodyTimeoutMs: number;
  /** A larger response body is refused as it arrives (the largest legitimate one: a photo). */
  maxResponseBytes: number;
}

export const HTTP_BOUNDS: HttpBounds = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  maxResponseBytes: 16 * 1024 * 1024,
};

/**
 * Makes `bounds` apply to every fetch of the process (undici's global dispatcher, which Node's
 * fetch uses). Called when the federation loads; the last call wins.
 */
export function boundOutboundHttp(bounds: HttpBounds = HTTP_BOUNDS): void {
  setGlobalDispatcher(
    new Agent({
      connect: { timeout: bounds.connectTimeoutMs },
      headersTimeout: bounds.headersTimeoutMs,
      bodyTimeout: bounds.bodyTimeoutMs,
      maxResponseSize: bounds.maxResponseBytes,
    }),
  );
}
