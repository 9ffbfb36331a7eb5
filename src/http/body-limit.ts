import type { Context } from 'hono';
import { DomainError, badRequest } from '../domain-error.ts';
import { isUploadRoute } from './server-paths.ts';

/** Every request body but a photo upload or an import file: JSON, ActivityPub deliveries. */
export const BODY_LIMIT = 1024 * 1024;
/** A form carrying a photo of up to 15 MB (checked again, exactly, by the media module). */
export const UPLOAD_BODY_LIMIT = 16 * 1024 * 1024;

export const tooLarge = (limit: number) =>
  new DomainError(413, `The request body is too large: at most ${formatBytes(limit)}`);

/** An import file (POST /api/imports: a CSV or a vault export ZIP), received to disk as it streams. */
export const IMPORT_BODY_LIMIT = 50 * 1024 * 1024;
const IMPORT_ROUTE = /^\/api\/imports\/?$/;

/** A body the client stopped sending half-way (an aborted upload, a dropped connection). */
export const incompleteBody = () => badRequest('The request body was not received completely');

function formatBytes(bytes: number): string {
  return `${bytes / 1024 / 1024} MB`;
}

/**
 * Bounds a request body before anything reads it (GET and HEAD carry none and are not looked
 * at). A declared length over the limit is refused at once, unread; a chunked body is counted
 * as it streams and refused the moment it crosses the limit (nothing buffers it here). An
 * import file and the photo uploads (UPLOAD_ROUTES, src/http/server-paths.ts) get larger
 * limits; everything else, federation included, 1 MB.
 */
export function boundRequestBody(c: Context, method: string, path: string): void {
  const raw = c.req.raw;
  const declared = raw.headers.get('content-length');
  const limit =
    method === 'POST' && IMPORT_ROUTE.test(path)
      ? IMPORT_BODY_LIMIT
      : isUploadRoute(method, path)
        ? UPLOAD_BODY_LIMIT
        : BODY_LIMIT;
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
