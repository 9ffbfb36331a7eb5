/**
 * Uploads that show their progress. XMLHttpRequest is the one browser API that reports how much
 * of a request body has gone, so such an upload is sent with it here (`sendWithProgress`, for
 * an entry with a photo and for an import file) and its answer handed back as a fetch Response,
 * so the API module reads it as any other.
 *
 * The progress of the photo being uploaded, for a progress bar: one upload at a time is tracked,
 * by the photo (the Blob) being sent (`sendTracked`), and the photo input showing that Blob shows
 * the bar. No DOM or React imports here (XMLHttpRequest is looked up when used).
 */
export interface UploadProgress {
  /** The photo being sent. */
  file: Blob;
  /** Bytes of the request body sent so far, and in all (the photo plus the other fields). */
  loaded: number;
  total: number;
}

/** What of XMLHttpRequest is used (typed here: the server's type check has no DOM types). */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData | Blob): void;
  abort(): void;
  withCredentials: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly responseText: string;
  upload: { onprogress: ((event: ProgressLike) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

interface ProgressLike {
  lengthComputable: boolean;
  loaded: number;
  total: number;
}

const XhrClass = () => (globalThis as unknown as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;

type Listener = () => void;
let current: UploadProgress | null = null;
const listeners = new Set<Listener>();

function set(progress: UploadProgress | null): void {
  current = progress;
  for (const listener of listeners) listener();
}

export function subscribeUploadProgress(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentUploadProgress(): UploadProgress | null {
  return current;
}

/** Whether progress can be reported here (a browser); elsewhere callers use fetch. */
export function canTrackUploads(): boolean {
  return typeof XhrClass() === 'function';
}

/** What an upload sends, as fetch would take it. */
export interface UploadInit {
  method: string;
  headers: Record<string, string>;
  body: FormData | Blob;
  signal?: AbortSignal;
}

/**
 * Sends `init.body` like fetch would (same origin, cookies included) and tells `onProgress` how
 * many bytes of the body have gone, of how many. Rejects with a TypeError when the network
 * fails, as fetch does, and with an AbortError when `init.signal` aborts it.
 */
export function sendWithProgress(
  url: string,
  init: UploadInit,
  onProgress: (loaded: number, total: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const Request = XhrClass();
    if (!Request) {
      reject(new TypeError('XMLHttpRequest is not available'));
      return;
    }
    const xhr = new Request();
    xhr.open(init.method, url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onload = () =>
      resolve(
        new Response(xhr.status === 204 ? null : xhr.responseText, {
          status: xhr.status,
          statusText: xhr.statusText,
        }),
      );
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(init.body);
  });
}

/**
 * Sends a form with `sendWithProgress` and reports the upload's progress under `file` (the
 * photo in it) until it ends, however it ends.
 */
export async function sendTracked(url: string, init: UploadInit, file: Blob): Promise<Response> {
  set({ file, loaded: 0, total: file.size });
  try {
    return await sendWithProgress(url, init, (loaded, total) => set({ file, loaded, total }));
  } finally {
    if (current?.file === file) set(null);
  }
}
