/**
 * `sendOrQueue`: how a form sends a write that may have to wait for a connection (logging an
 * entry in a basement). It sends the call at once when it can and answers the vault's answer;
 * it keeps it in the signed-in user's offline queue (queue.ts) instead, and answers
 * `{ queued: true }`, when
 *  - the browser says it is offline, or
 *  - something is already waiting (a later change goes behind it: the order is kept), or
 *  - the request got no answer at all (a network error). The Idempotency-Key it was sent with is
 *    kept with it, so if the vault did receive it, sending it again does not apply it twice.
 * Any answer of the vault, an error too, is the caller's as with `call`: a refused form is shown
 * as it always was.
 */
import type { AnswerOf } from '../../../contract/routes/index.ts';
import { call, type CallInput } from '../api/call.ts';
import { ApiError, NO_ANSWER } from '../api/client.ts';
import { IDEMPOTENCY_HEADER, type OfflineQueue } from './queue.ts';
import type { NewChange, QueuedChange, QueuedField, WriteRouteKey } from './queue-store.ts';

/** What a person is told of any change kept on the device (every form that keeps one says it). */
export const KEPT_ON_DEVICE = 'Saved on this device: it will be sent when the connection returns.';

export type SendResult<K extends WriteRouteKey> =
  { queued: false; answer: AnswerOf<K> } | { queued: true; change: QueuedChange };

interface LooseInput {
  params?: Record<string, string | number>;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
}

let current: OfflineQueue | null = null;
const swapped = new Set<() => void>();

/** Which queue `sendOrQueue` uses: the signed-in user's (set by the header's SyncStatus). */
export function setCurrentQueue(queue: OfflineQueue | null): void {
  current = queue;
  for (const listener of swapped) listener();
}

/** The queue `sendOrQueue` uses now, if any. */
export const currentQueue = (): OfflineQueue | null => current;

/** Calls `listener` whenever the queue `sendOrQueue` uses is set or cleared. */
export function subscribeCurrentQueue(listener: () => void): () => void {
  swapped.add(listener);
  return () => swapped.delete(listener);
}

/** Whether the browser says it has no connection (never in Node, which has no such flag). */
export function browserOffline(): boolean {
  return (globalThis.navigator as { onLine?: boolean } | undefined)?.onLine === false;
}

/** A random UUID, also where crypto.randomUUID is missing (a page served over plain HTTP). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A form's fields in order, files kept with their names. */
export function fieldsOf(form: FormData): QueuedField[] {
  const fields: QueuedField[] = [];
  for (const [name, value] of form) {
    fields.push(
      typeof value === 'string' ? { name, value } : { name, file: value, filename: value.name },
    );
  }
  return fields;
}

/** The change to keep for a call. */
export function changeOf(
  route: WriteRouteKey,
  input: LooseInput,
  label: string,
  idempotencyKey: string,
  queuedAt = Date.now(),
): NewChange {
  return {
    route,
    ...(input.params && { params: input.params }),
    ...(input.json !== undefined && { json: input.json }),
    ...(input.form && { form: fieldsOf(input.form) }),
    idempotencyKey,
    queuedAt,
    label,
  };
}

/**
 * Sends `route` now, or keeps it for later (see the header). `label` is what the header's list
 * of waiting changes shows: 'Log Ardbeg Uigeadail'. Rejects as `call` does for an answer that is
 * an error, and with the network error when the change could not be kept either.
 */
export async function sendOrQueue<K extends WriteRouteKey>(
  route: K,
  input: CallInput<K>,
  label: string,
): Promise<SendResult<K>> {
  const loose = input as LooseInput;
  const queue = current;
  const idempotencyKey = newIdempotencyKey();
  // The fields are read now, before anything else can change the form.
  const change = changeOf(route, loose, label, idempotencyKey);
  const keep = async (syncNow: boolean): Promise<SendResult<K>> => {
    const kept = await queue!.enqueue(change);
    // Behind others while online: the queue is being sent, or is sent now.
    if (syncNow) void queue!.sync();
    return { queued: true, change: kept };
  };
  if (queue) {
    const offline = browserOffline();
    if (offline || (await queue.hasWaiting().catch(() => false))) {
      try {
        return await keep(!offline);
      } catch {
        // It cannot be kept (IndexedDB refused): send it, as without a queue.
      }
    }
  }
  try {
    const headers = { ...loose.headers, [IDEMPOTENCY_HEADER]: idempotencyKey };
    const answer = await (call as (route: K, input: unknown) => Promise<AnswerOf<K>>)(route, {
      ...loose,
      headers,
    });
    return { queued: false, answer };
  } catch (error) {
    if (!queue || !(error instanceof ApiError) || error.status !== NO_ANSWER) throw error;
    try {
      return await keep(false);
    } catch {
      throw error;
    }
  }
}
