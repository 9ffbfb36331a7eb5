import { AsyncLocalStorage } from 'node:async_hooks';
import { Agent, setGlobalDispatcher, type Dispatcher } from 'undici';

/**
 * Bounds on every outbound HTTP request this process makes with fetch, Fedify's own included:
 * key fetches while verifying a delivery, JSON-LD contexts, WebFinger, and deliveries to other
 * servers' inboxes. Fedify sets no timeout on them and reads any body whole, so a remote server
 * that never answers, or answers forever, would hold them (and a queue worker) without end.
 * Deliveries (requests made while a delivery worker handles a message: withDeliveryBounds) get
 * tighter time bounds than the rest: an inbox answers a POST at once, and each second a silent
 * one is waited for is a second a delivery worker does nothing else.
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
  /** Establishing the connection of a delivery. */
  deliveryConnectTimeoutMs: number;
  /** From sending a delivery to the response's headers, and the longest silence in its body. */
  deliveryAnswerTimeoutMs: number;
}

export const HTTP_BOUNDS: HttpBounds = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  maxResponseBytes: 16 * 1024 * 1024,
  deliveryConnectTimeoutMs: 5_000,
  deliveryAnswerTimeoutMs: 10_000,
};

const deliveryScope = new AsyncLocalStorage<true>();

/** Runs `run` with the delivery bounds on every fetch it makes (a delivery worker's handler). */
export function withDeliveryBounds<T>(run: () => T): T {
  return deliveryScope.run(true, run);
}

/**
 * Makes `bounds` apply to every fetch of the process (undici's global dispatcher, which Node's
 * fetch uses): the delivery bounds inside withDeliveryBounds, the others elsewhere. Called when
 * the federation loads; the last call wins.
 */
export function boundOutboundHttp(bounds: HttpBounds = HTTP_BOUNDS): void {
  const deliveries = new Agent({
    connect: { timeout: bounds.deliveryConnectTimeoutMs },
    headersTimeout: bounds.deliveryAnswerTimeoutMs,
    bodyTimeout: bounds.deliveryAnswerTimeoutMs,
    maxResponseSize: bounds.maxResponseBytes,
  });
  const others = new Agent({
    connect: { timeout: bounds.connectTimeoutMs },
    headersTimeout: bounds.headersTimeoutMs,
    bodyTimeout: bounds.bodyTimeoutMs,
    maxResponseSize: bounds.maxResponseBytes,
  });
  const route: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) =>
    deliveryScope.getStore() ? deliveries.dispatch(options, handler) : dispatch(options, handler);
  setGlobalDispatcher(others.compose(route));
}
