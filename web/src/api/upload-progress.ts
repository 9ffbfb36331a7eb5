/**
 * The progress of the photo being uploaded, for a progress bar. An entry saved with a photo is
 * sent with XMLHttpRequest, the one browser API that reports how much of a request body has
 * gone; the answer is handed back as a fetch Response, so the API module reads it as any other.
 *
 * One upload at a time is tracked, by the photo (the Blob) being sent: the photo input showing
 * that Blob shows the bar. No DOM or React imports here (XMLHttpRequest is looked up when used).
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
  send(body: FormData): void;
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

/**
 * Sends `body` like fetch would (same origin, cookies included) and reports the upload's
 * progress under `file`. Rejects with a TypeError when the network fails, as fetch does.
 */
export function sendTracked(
  url: string,
  init: { method: string; headers: Record<string, string>; body: FormData; signal?: AbortSignal },
  file: Blob,
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
    const finish = () => {
      if (current?.file === file) set(null);
    };
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) set({ file, loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      finish();
      resolve(
        new Response(xhr.status === 204 ? null : xhr.responseText, {
          status: xhr.status,
          statusText: xhr.statusText,
        }),
      );
    };
    xhr.onerror = () => {
      finish();
      reject(new TypeError('Network request failed'));
    };
    xhr.onabort = () => {
      finish();
      reject(new DOMException('The upload was aborted', 'AbortError'));
    };
    init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    set({ file, loaded: 0, total: file.size });
    xhr.send(init.body);
  });
}
