import type { z } from 'zod';
import { formFilesOf, IMAGE_MAX_BYTES, type FormFileKeys } from '../form-files.ts';

/**
 * One route of the /api table: everything a caller, the server and the OpenAPI description need
 * to know of it. The table (contract/routes/index.ts) is keyed by `METHOD /path`, the path under
 * /api with `{name}` for a path parameter, e.g. `GET /beverages/{id}`. The server registers its
 * handlers by that key (src/http/contract-route.ts), the client calls by it
 * (web/src/api/call.ts), and GET /api/openapi.json is generated from it: a path, body or answer
 * changed here is a type error wherever it is used.
 */

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call a route:
 *  - `public`: anyone (sign-in itself); an access token may call a public GET (the OpenAPI
 *    document), never a public write (signing in and out);
 *  - `read`: a signed-in user, by session or by an access token of either scope;
 *  - `write`: a signed-in user, by session or by a `write` access token;
 *  - `session`: a signed-in user by session only: the account itself (password, second factor,
 *    sessions, access tokens), never by a token;
 *  - `admin`: an admin by session only.
 */
export type Access = 'public' | 'read' | 'write' | 'session' | 'admin';

/** The scopes of an access token: `read` may call `read` routes, `write` also `write` routes. */
export type TokenScope = 'read' | 'write';

export interface RouteDef {
  /** One line for the reference: what the route does. */
  summary: string;
  /** More, when one line is not enough (Markdown). */
  description?: string;
  /** The group it is listed under in the reference ('Entries', 'Sign-in', …). */
  tag: string;
  access: Access;
  /**
   * The path parameters, for the description only (handlers parse them, e.g. with `idParam`). By
   * default an `id`, a `…Id` or a `year` is an integer and any other a string; a route whose
   * parameter is not so says it here: `params: z.object({ id: z.string() })`.
   */
  params?: z.ZodObject;
  /** The query string, parsed before the handler runs (a bad value is a 400). */
  query?: z.ZodObject;
  /** A JSON body, parsed before the handler runs (a bad one is a 400 or 415). */
  json?: z.ZodType;
  /** The JSON body may be left out altogether (it is then `{}` run through `json`). */
  jsonOptional?: true;
  /**
   * A multipart form body, parsed before the handler runs: a zod object whose text fields are
   * strings as a form sends them (their schemas coerce them: 'true', '4', '' for none) and whose
   * files are declared with `formFile` (contract/form-files.ts: one file each, with the most
   * bytes it may hold). The handler receives `form: { fields, files }`, the files as bytes. A
   * route with `json` too takes either: JSON when the request says so, else the form.
   */
  form?: z.ZodObject;
  /**
   * The body is one file sent as it is, not in a form: its media type (for the reference: the
   * OpenAPI body is a binary string of that type) and the most bytes it may hold. The handler
   * reads the stream itself. A route takes one of `json`, `form` and `upload`.
   */
  upload?: { type: string; maxBytes: number };
  /** The JSON answer. Without it, the answer has no body (204) unless `file` says otherwise. */
  answer?: z.ZodType;
  /** The status of a successful answer: 200 unless said (201 for a creation, 204 without body). */
  status?: 200 | 201 | 202 | 204;
  /** A file answer instead of JSON: its media type ('application/zip', 'text/csv', …). */
  file?: string;
  /** The error statuses a caller should expect besides those that `access` implies. */
  errors?: readonly number[];
  /**
   * The answer hands out a secret shown this once (an access token's secret, the authenticator
   * app's secret and backup codes): it is never kept for an `Idempotency-Key` replay, and the
   * key sent again answers 409 without it (src/http/idempotency.ts).
   */
  secretAnswer?: true;
}

/** The body of a route that takes JSON, and of any request outside the table: 1 MiB. */
export const JSON_BODY_LIMIT = 1024 * 1024;
/** Room in a form's body for its text fields and the multipart framing, besides its files. */
export const FORM_FIELDS_BYTES = 1024 * 1024;
/** The body of a form with one image (a photo, an avatar) and its text fields: 16 MiB. */
export const FORM_BODY_LIMIT = IMAGE_MAX_BYTES + FORM_FIELDS_BYTES;

/**
 * The most bytes a route's body may hold, from what it takes: a form its files' limits and
 * room for its text fields, an upload its `maxBytes`, anything else (JSON) 1 MiB. The server
 * bounds every body by it before anything reads it (src/http/body-limit.ts), and the reference
 * states it.
 */
export function bodyLimitOf(def: RouteDef): number {
  if (def.upload) return def.upload.maxBytes;
  if (!def.form) return JSON_BODY_LIMIT;
  const files = Object.values(formFilesOf(def.form));
  return files.reduce((sum, file) => sum + file.maxBytes, FORM_FIELDS_BYTES);
}

/** Declares one route, keeping its literal types (its schemas) for the table's users. */
export function route<const D extends RouteDef>(def: D): D {
  return def;
}

/** The key of a route: its method and its path under /api. */
export type RouteKeyOf = `${Method} /${string}`;
export type RouteTable = Record<RouteKeyOf, RouteDef>;

/** The path of a key ('/beverages/{id}' of 'GET /beverages/{id}'). */
export type PathOf<K extends string> = K extends `${Method} ${infer P}` ? P : never;

/** The names of a path's parameters ('id' | 'commentId'). */
export type PathParamsOf<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamsOf<Rest>
  : never;

/** What the caller sends as the JSON body (before the schema's defaults and transforms). */
export type JsonInputOf<D> = D extends { json: infer S extends z.ZodType } ? z.input<S> : never;
/** What the handler receives as the JSON body (after the schema's defaults and transforms). */
export type JsonOutputOf<D> = D extends { json: infer S extends z.ZodType } ? z.output<S> : never;
/**
 * What the handler receives of a form: its text fields parsed by the form's schema, and its
 * files as bytes (a file left out, or empty, is not there).
 */
export type FormOutputOf<D> = D extends { form: infer S extends z.ZodObject }
  ? {
      fields: Omit<z.output<S>, FormFileKeys<S>>;
      files: Partial<Record<FormFileKeys<S>, Uint8Array>>;
    }
  : never;
/** The query as the handler receives it. */
export type QueryOutputOf<D> = D extends { query: infer S extends z.ZodType } ? z.output<S> : never;
/** The query as the caller sends it. */
export type QueryInputOf<D> = D extends { query: infer S extends z.ZodType } ? z.input<S> : never;
/** The JSON answer, or `undefined` for a route that answers without a body. */
export type AnswerOfDef<D> = D extends { answer: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/**
 * Routes that share a path prefix, written with the rest of their path only
 * (`'POST /{id}/cheer'` under '/beverages' is `'POST /beverages/{id}/cheer'`): for a family of
 * routes served at two places, such as an entry's conversation.
 */
export function under<const B extends string, const T extends Record<string, RouteDef>>(
  base: B,
  defs: T,
): {
  [K in keyof T & string as K extends `${infer M} ${infer P}` ? `${M} ${B}${P}` : never]: T[K];
} {
  const table: Record<string, RouteDef> = {};
  for (const [key, def] of Object.entries(defs)) {
    const space = key.indexOf(' ');
    table[`${key.slice(0, space)} ${base}${key.slice(space + 1)}`] = def;
  }
  return table as never;
}
