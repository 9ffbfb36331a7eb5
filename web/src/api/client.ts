/**
 * The one API module. Every call the client makes goes through
 * `request`: paths are under /api, cookies are sent, bodies are JSON or FormData, and every
 * response is read as text and then parsed as JSON, with the error rules of the API contract.
 * The typed `call` (./call.ts) is built on it; the calls themselves are in the feature modules
 * (the shell's in ./shell-calls.ts), so this module imports none of them.
 *
 * This file has no DOM or React imports so that it can be unit-tested in Node.
 */
import { connectionMark, reportReached, reportUnreachable } from './reachability.ts';

export const API_PREFIX = '/api';
export const INVALID_RESPONSE = 'Invalid response from server';
export const UNEXPECTED_LOGIN_RESPONSE = 'Unexpected login response';
const UNREACHABLE = 'Could not reach the server. Check your connection and try again.';

/** The status of an ApiError for a request that got no answer at all (a network error). */
export const NO_ANSWER = 0;

/** An error from the API. `message` is what the user sees; `status` is for branching only. */
export class ApiError extends Error {
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent as multipart form data (the browser sets the boundary). */
  form?: FormData;
  /** Appended as a query string; null, undefined and '' are left out. */
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** A photo in `form` whose upload progress is reported (see upload-progress.ts). */
  trackUpload?: Blob;
  /** Sent besides Accept (the offline queue's Idempotency-Key). */
  headers?: Record<string, string>;
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener | null = null;

/**
 * Called when a signed-in call answers 401 (the session expired or was ended elsewhere).
 * Sign-in calls themselves (/auth/*, /webauthn/authentication/*) never trigger it.
 */
export function setUnauthorizedListener(listener: UnauthorizedListener | null): void {
  onUnauthorized = listener;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = API_PREFIX + (path.startsWith('/') ? path : `/${path}`);
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === null || value === undefined || value === '') continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/**
 * Turns a response into data or an ApiError, exactly as the API contract says:
 * - the body is read as text and parsed as JSON (an empty body is `undefined`);
 * - invalid JSON: 'Invalid response from server' when the status is ok, otherwise the raw text;
 * - a non-ok status throws the `message` field, or else the text, or else the status text;
 * - any other field (an error code, say) is never shown.
 */
export async function readResponse<T>(response: Response): Promise<T> {
  const text = await response.text();
  let data: unknown = undefined;
  let valid = true;
  if (text.trim() !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      valid = false;
    }
  }
  if (!response.ok) {
    const field = valid && isRecord(data) ? data.message : undefined;
    const message =
      (typeof field === 'string' && field.trim() !== '' ? field : '') ||
      text ||
      response.statusText ||
      `Request failed (${response.status})`;
    throw new ApiError(message, response.status);
  }
  if (!valid) throw new ApiError(INVALID_RESPONSE, response.status);
  return data as T;
}

/**
 * Runs `send` (a fetch, or an upload that answers like one) and resolves to its response,
 * telling reachability.ts whether the vault was reached: a request that got no answer at all
 * rejects with an ApiError of status NO_ANSWER, an aborted one with its AbortError.
 */
export async function exchange(send: () => Promise<Response>): Promise<Response> {
  const mark = connectionMark();
  let response: Response;
  try {
    response = await send();
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    reportUnreachable(mark);
    throw new ApiError(UNREACHABLE, NO_ANSWER);
  }
  reportReached();
  return response;
}

/** The generic call every feature uses. Resolves to the parsed JSON body (or undefined). */
export async function request<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { json, form, query, signal, trackUpload } = options;
  const method = options.method ?? (json !== undefined || form ? 'POST' : 'GET');
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: string | FormData | undefined;
  if (form) {
    body = form;
  } else if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  }

  const url = buildUrl(path, query);
  const response = await exchange(async () => {
    // Upload progress is fetched with the first photo (it is not part of the first download;
    // the photo input that shows it is on a screen loaded on demand).
    const tracking = form && trackUpload ? await import('./upload-progress.ts') : null;
    return form && trackUpload && tracking?.canTrackUploads()
      ? tracking.sendTracked(url, { method, headers, body: form, signal }, trackUpload)
      : fetch(url, { method, headers, body, credentials: 'include', signal });
  });

  try {
    return await readResponse<T>(response);
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.status === 401 &&
      !path.startsWith('/auth/') &&
      !path.startsWith('/webauthn/authentication/')
    ) {
      onUnauthorized?.();
    }
    throw error;
  }
}

/** The photo a form sends, if any: its upload progress is shown. */
export function photoOf(form: FormData): Blob | undefined {
  const photo = form.get('photo');
  return photo instanceof Blob ? photo : undefined;
}
