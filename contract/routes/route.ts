import type { z } from 'zod';

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
   * A multipart form body: the fields it takes, for the reference (the handler reads the form
   * itself, for files). A route with both takes either: the JSON body is parsed when the request
   * is JSON, and the handler reads a form otherwise.
   */
  form?: z.ZodObject;
  /**
   * The body is one file sent as it is, not in a form (its media type, for the reference: the
   * OpenAPI body is a binary string of that type). The handler reads the stream itself. A route
   * takes one of `json`, `form` and `upload`.
   */
  upload?: string;
  /**
   * The most bytes its body may hold, when not what it takes implies (`bodyLimitOf`): the
   * import file's is larger than a photo's.
   */
  bodyLimit?: number;
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
/**
 * The body of a route that takes a form or a file: a photo or an avatar of up to 15 MB (checked
 * again, exactly, by the media module) and its fields.
 */
export const FORM_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * The most bytes a route's body may hold: its `bodyLimit`, else what it takes says: a form or a
 * file (`form`, `upload`) 16 MiB, JSON 1 MiB. The server bounds every body by it before anything
 * reads it (src/http/body-limit.ts), and the reference states it.
 */
export function bodyLimitOf(def: RouteDef): number {
  return def.bodyLimit ?? (def.form || def.upload ? FORM_BODY_LIMIT : JSON_BODY_LIMIT);
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
