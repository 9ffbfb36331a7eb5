import type { Context } from 'hono';
import { apiRoutes } from '../../contract/routes/index.ts';
import { bodyLimitOf, JSON_BODY_LIMIT, type RouteDef } from '../../contract/routes/route.ts';
import { DomainError, badRequest } from '../domain-error.ts';
import { anyOf } from './token-gate.ts';

export const tooLarge = (limit: number) =>
  new DomainError(413, `The request body is too large: at most ${formatBytes(limit)}`);

/** A body the client stopped sending half-way (an aborted upload, a dropped connection). */
export const incompleteBody = () => badRequest('The request body was not received completely');

function formatBytes(bytes: number): string {
  return `${bytes / 1024 / 1024} MB`;
}

/**
 * The body limit of each request, compiled once from the route table (contract/routes/): the
 * `bodyLimitOf` of the route the request is for, so that a route taking a photo or a file gets
 * the limit of what it takes wherever it is declared. Everything outside the table, federation
 * included, gets 1 MiB. A path without parameters is looked up exactly (`/users/me` is the
 * profile form, not `/users/{id}`); among routes with parameters that match, the largest limit
 * wins. A route with the JSON limit needs no pattern, so a request costs a map lookup and at
 * most a regular expression test or two.
 */
export function compileBodyLimits(
  table: Record<string, RouteDef> = apiRoutes,
): (method: string, path: string) => number {
  const exact = new Map<string, number>();
  const larger = new Map<string, Map<number, string[]>>();
  for (const [key, def] of Object.entries(table)) {
    const space = key.indexOf(' ');
    const method = key.slice(0, space);
    const path = key.slice(space + 1);
    const limit = bodyLimitOf(def);
    if (!path.includes('{')) exact.set(`${method} /api${path}`, limit);
    else if (limit > JSON_BODY_LIMIT) {
      let byLimit = larger.get(method);
      if (!byLimit) larger.set(method, (byLimit = new Map()));
      byLimit.set(limit, [...(byLimit.get(limit) ?? []), path]);
    }
  }
  const patterns = new Map<string, { limit: number; paths: RegExp }[]>();
  for (const [method, byLimit] of larger) {
    const list = [...byLimit]
      .sort(([a], [b]) => b - a)
      .map(([limit, paths]) => ({ limit, paths: anyOf(paths)! }));
    patterns.set(method, list);
  }
  return (method, path) => {
    const known = exact.get(`${method} ${path}`);
    if (known !== undefined) return known;
    for (const { limit, paths } of patterns.get(method) ?? []) if (paths.test(path)) return limit;
    return JSON_BODY_LIMIT;
  };
}

const limitOf = compileBodyLimits();

/**
 * Bounds a request body before anything reads it (GET and HEAD carry none and are not looked
 * at), by the limit of its route (`compileBodyLimits`). A declared length over the limit is
 * refused at once, unread; a chunked body is counted as it streams and refused the moment it
 * crosses the limit (nothing buffers it here).
 */
export function boundRequestBody(c: Context, method: string, path: string): void {
  const raw = c.req.raw;
  const declared = raw.headers.get('content-length');
  const limit = limitOf(method, path);
  if (declared !== null && !raw.headers.has('transfer-encoding')) {
    // The HTTP parser enforces a declared length: the body cannot be longer than this.
    if (Number(declared) > limit) throw tooLarge(limit);
    return;
  }
  if (!raw.body) return;
  let size = 0;
  const counted = raw.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(tooLarge(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  c.req.raw = new Request(raw, { body: counted, duplex: 'half' } as RequestInit);
}

/**
 * Reads a whole (already bounded) body as text. A body over the limit stays a 413; a body that
 * breaks off becomes a 400, never an unhandled error.
 */
export async function readBodyText(request: Request): Promise<string> {
  try {
    return await request.text();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof Error && error.cause instanceof DomainError) throw error.cause;
    throw incompleteBody();
  }
}

/**
 * How deeply a JSON text nests arrays and objects, counted without parsing (strings skipped),
 * stopping as soon as `max` is exceeded. Deep nesting overflows recursive parsers and
 * processors further on, so it is refused up front.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 /* [ */ || ch === 123 /* { */) {
      if (++depth > max) return true;
    } else if (ch === 93 /* ] */ || ch === 125 /* } */) depth--;
  }
  return false;
}
