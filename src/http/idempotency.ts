import { createHash, scrypt, type Hash } from 'node:crypto';
import { promisify } from 'node:util';
import type { Context } from 'hono';
import type { RouteDef } from '../../contract/routes/route.ts';
import { DomainError, badRequest } from '../domain-error.ts';
import type { IdempotencyService } from '../idempotency/service.ts';
import { incompleteBody } from './body-limit.ts';
import type { AppEnv } from './env.ts';
import { handleError } from './errors.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
export const INVALID_KEY = 'The Idempotency-Key must be 1 to 255 visible ASCII characters';
/** What a key answers when sent again after a route's answer that held a secret. */
export const SECRET_NOT_KEPT =
  'This request was already carried out; its answer held a secret, shown once, so it is not ' +
  'kept. See what it made in the vault (revoke an access token whose secret was lost), or send ' +
  'a new request with a new Idempotency-Key';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Runs one write of a signed-in user under its `Idempotency-Key`, when it has one (else `run`
 * as it is). The key is checked (400), the method, path and raw body bytes hashed (the body is
 * read once, within its bound, and put back so that the handler reads it as usual), and then:
 *  - a new key runs the request and keeps its answer (status and JSON body) for 24 hours;
 *  - the same key and request again answers the kept answer with `Idempotent-Replayed: true`;
 *  - the same key with another request, or while the first is still running, is a 409.
 * Kept: every answer but a server error (5xx) and a 429 (the client is told to wait and send
 * it again): a 4xx says the request was refused as a whole, and sending it again gets the same
 * refusal. A server error, or an answer that is not JSON (a file, a stream, one that sets a
 * cookie), releases the key: sending it again runs the request again.
 *
 * A route whose answer hands out a secret shown once (`secretAnswer` in the route table) keeps,
 * for a success, not the answer but a 409 saying so: the secret is stored nowhere, and the key
 * sent again neither shows it nor runs the request a second time. The request of a route that
 * may carry a password (`carriesPasswords`) is kept as a slow hash (`requestHash`).
 */
export async function idempotent(
  c: Context<AppEnv>,
  run: () => Promise<Response>,
  route: Pick<RouteDef, 'access' | 'secretAnswer'>,
): Promise<Response> {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  const keys = c.get('idempotency') as IdempotencyService | undefined;
  const user = c.get('user');
  if (key === undefined || !keys || !user || !WRITES.has(c.req.method)) return run();
  if (!VALID_KEY.test(key)) throw badRequest(INVALID_KEY);

  const hash = await requestHash(c, carriesPasswords(route) ? `${user.id}\0${key}` : undefined);
  const start = await keys.start(user.id, key, hash);
  if (start.kind === 'replay') {
    c.header(REPLAYED_HEADER, 'true');
    if (start.body === null) return c.body(null, start.status as 204);
    return c.body(start.body, start.status as 200, { 'Content-Type': 'application/json' });
  }
  let res: Response;
  try {
    res = await run();
  } catch (error) {
    res = handleError(error instanceof Error ? error : new Error(String(error)), c);
  }
  const kept = await keptAnswer(res, route.secretAnswer === true);
  if (kept) await keys.finish(start.id, kept.status, kept.body);
  else await keys.release(start.id);
  return res;
}

/** The answer to keep, or undefined for one that is not kept (see `idempotent`). */
async function keptAnswer(
  res: Response,
  secretAnswer: boolean,
): Promise<{ status: number; body: string | null } | undefined> {
  const { status } = res;
  if (status >= 500 || status === 429 || res.headers.has('set-cookie')) return undefined;
  if (secretAnswer && status < 300) {
    return { status: 409, body: JSON.stringify({ message: SECRET_NOT_KEPT }) };
  }
  if (res.body === null || status === 204) return { status, body: null };
  if (!/^application\/json\b/i.test(res.headers.get('content-type') ?? '')) return undefined;
  return { status, body: await res.clone().text() };
}

/**
 * Whether a route's request may carry a password: the account's own routes (`session`: the
 * password, the second factor) and the admin's (a user made or reset with a password). Tokens
 * reach neither, and no other route takes a password (test/api/idempotency-secrets.test.ts
 * checks the route table's bodies).
 */
export function carriesPasswords(route: Pick<RouteDef, 'access'>): boolean {
  return route.access === 'session' || route.access === 'admin';
}

const scryptAsync = promisify(scrypt) as (
  secret: string,
  salt: string,
  length: number,
  options: { N: number; r: number; p: number },
) => Promise<Buffer>;

/**
 * SHA-256 of the method, the path with its query and the raw body; with a `salt`, that digest
 * run through scrypt (N=2^14, r=8: about 16 MiB and tens of milliseconds, the cost of an
 * interactive sign-in's hash), salted with the user and the key. A plain SHA-256 of a body
 * holding a password, kept in the table and so in backups, could be tried against a list of
 * passwords at billions a second; the slow hash costs what guessing the stored password hash
 * costs. The same request with the same key still hashes the same. A multipart body is hashed
 * with its boundary left out: a client that sends the same form again (a browser's FormData, an
 * offline queue) draws a new random boundary each time, and the boundary cannot occur in the
 * content, so the same fields and files hash the same. The body is read whole
 * (already bounded by src/http/body-limit.ts) and the request rebuilt around the bytes.
 */
async function requestHash(c: Context<AppEnv>, salt: string | undefined): Promise<string> {
  const raw = c.req.raw;
  const url = new URL(raw.url);
  const hash = createHash('sha256').update(`${raw.method} ${url.pathname}${url.search}\n`);
  if (raw.body) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await raw.arrayBuffer());
    } catch (error) {
      if (error instanceof DomainError) throw error;
      if (error instanceof Error && error.cause instanceof DomainError) throw error.cause;
      throw incompleteBody();
    }
    hashBody(hash, bytes, multipartBoundary(raw.headers.get('content-type')));
    c.req.raw = new Request(raw, { body: bytes });
  }
  const digest = hash.digest('hex');
  if (salt === undefined) return digest;
  return (await scryptAsync(digest, salt, 32, { N: 2 ** 14, r: 8, p: 1 })).toString('hex');
}

function multipartBoundary(contentType: string | null): string | undefined {
  if (!contentType || !/^multipart\//i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function hashBody(hash: Hash, bytes: Uint8Array, boundary: string | undefined): void {
  if (!boundary) {
    hash.update(bytes);
    return;
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  let from = 0;
  for (let at = buffer.indexOf(delimiter); at !== -1; at = buffer.indexOf(delimiter, from)) {
    hash.update(buffer.subarray(from, at)).update('\0--boundary\0');
    from = at + delimiter.length;
  }
  hash.update(buffer.subarray(from));
}
