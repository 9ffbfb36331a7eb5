/**
 * Calls by the route table: `call('POST /beverages/{id}/comments', { params: { id }, json })`.
 * The key is the route's method and path as contract/routes/ declares it, so the path
 * parameters, the body and the answer are typed from the one table the server serves: a route
 * changed there is a type error here. Only types come from contract/ (no zod in the bundle);
 * the answer is the server's JSON as the contract types it, through `request`'s error rules.
 */
import type { AnswerOf, ApiRoutes, RouteKey } from '../../../contract/routes/index.ts';
import type {
  JsonInputOf,
  PathOf,
  PathParamsOf,
  QueryInputOf,
} from '../../../contract/routes/route.ts';
import { ApiError, INVALID_RESPONSE, request, type QueryValue } from './client.ts';

type Def<K extends RouteKey> = ApiRoutes[K];

interface FormInput {
  form: FormData;
  trackUpload?: Blob;
}

/** The body: JSON, a form, or (a route taking both) either one. */
type BodyInput<K extends RouteKey> = [JsonInputOf<Def<K>>] extends [never]
  ? Def<K> extends { form: object }
    ? FormInput
    : unknown
  : Def<K> extends { form: object }
    ? { json: JsonInputOf<Def<K>>; form?: never } | (FormInput & { json?: never })
    : Def<K> extends { jsonOptional: true }
      ? { json?: JsonInputOf<Def<K>> }
      : { json: JsonInputOf<Def<K>> };

/** What a call sends: path parameters, then the JSON body or the form, the query. */
export type CallInput<K extends RouteKey> = ([PathParamsOf<PathOf<K>>] extends [never]
  ? unknown
  : { params: Record<PathParamsOf<PathOf<K>>, string | number> }) &
  BodyInput<K> &
  ([QueryInputOf<Def<K>>] extends [never]
    ? unknown
    : { query?: { [Q in keyof QueryInputOf<Def<K>>]?: QueryValue } }) & {
    signal?: AbortSignal;
    headers?: Record<string, string>;
  };

type Args<K extends RouteKey> =
  Record<never, never> extends CallInput<K> ? [input?: CallInput<K>] : [input: CallInput<K>];

interface LooseInput {
  params?: Record<string, string | number>;
  json?: unknown;
  form?: FormData;
  trackUpload?: Blob;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** The path of a key with its parameters filled in (each one URL-encoded). */
export function pathOf(key: string, params: Record<string, string | number> = {}): string {
  const path = key.slice(key.indexOf(' ') + 1);
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${key}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * Calls one route of the table and resolves to its answer (undefined for one without a body).
 * The answer's fields are the contract's, as the server's tests check; an answer that is not a
 * JSON object at all is 'Invalid response from server'.
 */
export async function call<K extends RouteKey>(key: K, ...[input]: Args<K>): Promise<AnswerOf<K>> {
  const loose = (input ?? {}) as LooseInput;
  const method = key.slice(0, key.indexOf(' ')) as 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  // A POST without a body sends an empty JSON object, as every such call always has.
  const json = loose.json ?? (method === 'POST' && !loose.form ? {} : undefined);
  const answer = await request<unknown>(pathOf(key, loose.params), {
    method,
    json,
    form: loose.form,
    trackUpload: loose.trackUpload,
    query: loose.query,
    signal: loose.signal,
    headers: loose.headers,
  });
  if (
    answer !== undefined &&
    (typeof answer !== 'object' || answer === null || Array.isArray(answer))
  ) {
    throw new ApiError(INVALID_RESPONSE, 200);
  }
  return answer as AnswerOf<K>;
}
