import type { Context } from 'hono';
import { Hono } from 'hono';
import {
  apiRoutes,
  type ApiRoutes,
  type AnswerOf,
  type RouteKey,
} from '../../contract/routes/index.ts';
import type {
  Access,
  FormOutputOf,
  JsonOutputOf,
  PathOf,
  QueryOutputOf,
  RouteDef,
} from '../../contract/routes/route.ts';
import { forbidden, unauthorized } from '../domain-error.ts';
import { parseWith, readJson, readOptionalJson } from './body.ts';
import type { AppEnv } from './env.ts';
import { formReader, type ReadForm } from './form.ts';
import { idempotent } from './idempotency.ts';

type JsonInput<D> = { body: JsonOutputOf<D>; form?: undefined };
type FormInput<D> = { body?: undefined; form: FormOutputOf<D> };
type BodyInput<D> = D extends { form: object }
  ? D extends { json: object }
    ? JsonInput<D> | FormInput<D>
    : FormInput<D>
  : JsonInput<D>;

/**
 * What a handler is given besides the context: the query, and the body (JSON or a form), parsed
 * by the table's schemas. A route that takes JSON or a form gets one of `body` and `form`, by
 * what the request sent.
 */
export type RouteInput<K extends RouteKey> = { query: QueryOutputOf<ApiRoutes[K]> } & BodyInput<
  ApiRoutes[K]
>;

type MaybePromise<T> = T | Promise<T>;

/**
 * A route's handler: it answers the table's JSON answer (sent with the table's status), or a
 * Response of its own (a file, a pre-serialized body, a cookie set on it).
 */
export type RouteHandler<K extends RouteKey> = (
  c: Context<AppEnv>,
  input: RouteInput<K>,
) => MaybePromise<(AnswerOf<K> extends undefined ? void : AnswerOf<K>) | Response>;

/** The keys whose path starts with the prefix: the routes a router mounted there may serve. */
type KeysUnder<P extends string> = {
  [K in RouteKey]: PathOf<K> extends `${P}${'' | `/${string}`}` ? K : never;
}[RouteKey];

export const SESSION_ONLY = 'Access tokens cannot be used for this; sign in to the vault to do it';
export const READ_ONLY = 'This access token may only read; this needs a token with the write scope';

/** Every handler registered through a contract router (for the test that no route is missed). */
const contractHandlers = new WeakSet<object>();

/** Whether an /api handler was registered from the route table (test/api/route-table.test.ts). */
export function isContractHandler(handler: unknown): boolean {
  return typeof handler === 'function' && contractHandlers.has(handler);
}

/**
 * Who may call: the route's `access` from the table, checked before the handler runs. An access
 * token (put on the context by the front door) may call `read` routes, `write` routes with the
 * write scope, and never `session` or `admin` ones.
 */
export function checkAccess(c: Context<AppEnv>, access: Access): void {
  if (access === 'public') return;
  const user = c.get('user');
  if (!user) throw unauthorized();
  const token = c.get('token');
  if (token) {
    if (access === 'session' || access === 'admin') throw forbidden(SESSION_ONLY);
    if (access === 'write' && token.scope !== 'write') throw forbidden(READ_ONLY);
  }
  if (access === 'admin' && user.role !== 'ADMIN') throw forbidden('Only an admin can do that');
}

/**
 * A router for the routes of the table under one prefix (mounted at that prefix under /api).
 * `on(key, handler)` registers the key's method and path, checks access, parses the query and
 * the body (JSON, or a form with its files: src/http/form.ts) with the table's schemas and sends
 * the answer with the table's status: a route can only be served as the table describes it.
 */
export function contractRouter<const P extends string>(prefix: P) {
  const router = new Hono<AppEnv>();
  function on<K extends KeysUnder<P>>(key: K, handler: RouteHandler<K>): void {
    const def: RouteDef = apiRoutes[key];
    const space = key.indexOf(' ');
    const method = key.slice(0, space);
    const path = key.slice(space + 1);
    if (!path.startsWith(prefix)) throw new Error(`${key} is not under ${prefix}`);
    const sub = path.slice(prefix.length).replace(/\{(\w+)\}/g, ':$1') || '/';
    const status = def.status ?? (def.answer ? 200 : 204);
    const readForm = def.form ? formReader(def.form) : undefined;
    /** The body: JSON when the route takes it and the request is JSON (or, optional, empty), else the form. */
    const bodyOf = async (c: Context<AppEnv>): Promise<{ body?: unknown; form?: ReadForm }> => {
      const json = def.json && (isJson(c) || (def.jsonOptional && !c.req.header('content-type')));
      if (readForm && !json) return { form: await readForm(c) };
      if (!def.json) return {};
      const read = def.jsonOptional ? readOptionalJson : readJson;
      return { body: await read(c, def.json) };
    };
    const answer = async (c: Context<AppEnv>): Promise<Response> => {
      const query = def.query ? parseWith(def.query, c.req.query()) : undefined;
      const input = { query, ...(await bodyOf(c)) } as RouteInput<K>;
      const result = await handler(c, input);
      if (result instanceof Response) return result;
      if (result === undefined) return c.body(null, status as 204);
      return c.json(result as object, status as 200);
    };
    // A write of a signed-in user may carry an Idempotency-Key (src/http/idempotency.ts).
    const keyed = method !== 'GET' && def.access !== 'public';
    const serve = (c: Context<AppEnv>) => {
      checkAccess(c, def.access);
      return keyed ? idempotent(c, () => answer(c), def) : answer(c);
    };
    contractHandlers.add(serve);
    router.on(method, sub, serve);
  }
  return { router, on };
}

function isJson(c: Context<AppEnv>): boolean {
  return /^application\/json\b/i.test(c.req.header('content-type') ?? '');
}
