import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import https from 'node:https';
import tls from 'node:tls';

/** The HTTP plumbing of the fake remote: reading bodies, answering JSON, sending requests. */

/** A request the fake remote sends: exactly these headers and this body. */
export interface OutgoingRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface FakeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

/** The largest body the fake reads, sent or received. */
const MAX_BODY = 1024 * 1024;

/**
 * Sends a request with node:http(s), not fetch, so the headers go out as given (Host
 * included) and https trusts `trust` besides Node's default certificate authorities. Rejects
 * after `timeoutMs` (15 s: a first delivery also loads Fedify, slow on a busy machine) or when
 * the answer is over 1 MB.
 */
export function sendRequest(
  request: OutgoingRequest & { timeoutMs?: number },
  trust: readonly string[] = [],
): Promise<FakeResponse> {
  const url = new URL(request.url);
  const secure = url.protocol === 'https:';
  const client = secure ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: request.method ?? 'GET',
      headers: request.headers ?? {},
      ...(secure && trust.length > 0
        ? { ca: [...tls.getCACertificates('default'), ...trust] }
        : {}),
    });
    const timeoutMs = request.timeoutMs ?? 15_000;
    const timer = setTimeout(() => {
      req.destroy(new Error(`${request.method ?? 'GET'} ${url} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY) req.destroy(new Error(`${url} answered over 1 MB`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          json: <T>() => JSON.parse(body) as T,
        });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    req.end(request.body);
  });
}

/** The body, or null past 1 MB (the rest is not read). */
export function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  type = 'application/json',
) {
  res
    .writeHead(status, { 'content-type': type })
    .end(body === undefined ? '' : JSON.stringify(body));
}
