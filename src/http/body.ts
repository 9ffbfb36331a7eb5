import type { Context } from 'hono';
import type { z } from 'zod';
import { DomainError, badRequest } from '../domain-error.ts';
import { jsonDepthExceeds, readBodyText } from './body-limit.ts';

/** No API request nests anywhere near this; deeper JSON is refused before it is parsed. */
const MAX_JSON_DEPTH = 32;

/** Reads a JSON body, refusing other content types, malformed JSON and invalid shapes. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseJson(schema, await jsonText(c));
}

/**
 * For routes whose body is optional (follow, clone): no body, or an empty one, is `{}` run
 * through the schema; a body that is there is read as readJson does.
 */
export async function readOptionalJson<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<z.output<S>> {
  if (!c.req.header('content-type')) return parseWith(schema, {});
  const text = await jsonText(c);
  return text.trim() === '' ? parseWith(schema, {}) : parseJson(schema, text);
}

async function jsonText(c: Context): Promise<string> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new DomainError(415, 'Send the request body as JSON (Content-Type: application/json)');
  }
  return readBodyText(c.req.raw);
}

function parseJson<S extends z.ZodType>(schema: S, text: string): z.output<S> {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw badRequest('The request body nests too deeply');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON');
  }
  return parseWith(schema, raw);
}

/** Validates a value with a zod schema; the first problem becomes a 400 message. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(issue ? issueMessage(issue) : 'The request is not valid');
  }
  return result.data;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.path.length === 0) {
    return 'The request body must be a JSON object';
  }
  if (issue.code === 'unrecognized_keys') {
    return `Unknown field: ${issue.keys.join(', ')}`;
  }
  return issue.message;
}

/** Parses a positive integer id from a path parameter. */
export function idParam(c: Context, name: string, what: string): number {
  const raw = c.req.param(name) ?? '';
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) throw badRequest(`${what} id must be a positive integer`);
  return Number(raw);
}
