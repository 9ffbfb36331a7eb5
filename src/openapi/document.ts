import packageJson from '../../package.json' with { type: 'json' };
import { apiRoutes } from '../../contract/routes/index.ts';
import { apiTags } from '../../contract/routes/meta.ts';
import {
  bodyLimitOf,
  FORM_BODY_LIMIT,
  JSON_BODY_LIMIT,
  type RouteDef,
} from '../../contract/routes/route.ts';
import {
  ACCESS_WORDS,
  ERROR_ANSWERS,
  ERROR_SCHEMA,
  SECURITY_SCHEMES,
  errorResponses,
  errorStatuses,
  securityOf,
} from './access.ts';
import { contractSchemaNames } from './names.ts';
import { pascal, SchemaComponents, type JsonSchema } from './schemas.ts';

/**
 * GET /api/openapi.json: an OpenAPI 3.1 description of every /api route, generated from the
 * route table (contract/routes/): paths and parameters from its keys, bodies and answers from
 * its zod schemas, error answers and security from each route's `access`. docs/api.md is
 * rendered from the same document (src/openapi/reference.ts).
 */

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: JsonSchema[];
  requestBody?: JsonSchema;
  responses: Record<string, JsonSchema>;
  'x-access': RouteDef['access'];
  'x-token-scope'?: 'read' | 'write';
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    securitySchemes: typeof SECURITY_SCHEMES;
  };
}

/** Bytes as the reference writes them: whole MiB, called MB. */
const mb = (bytes: number) => bytes / 1024 / 1024;

const DESCRIPTION = `The JSON API of the vault, a private, self-hosted log for whiskey, wine and beer.

Call it with the session cookie a browser gets by signing in, or from a script or another tool
with a personal access token: create one on your profile under Access tokens and send it as
\`Authorization: Bearer vault_pat_…\`. A \`read\` token may make every GET you may make; a \`write\`
token may also log and change entries, your cellar, comments, cheers and follows. A token acts
as its user with the power of a plain user, an admin's too: it never reaches another user's
private things. The account itself (password, second factor, sessions, tokens) and admin routes
need a signed-in session. This document answers everyone, with or without a token.

Request bodies are JSON unless a route takes a form (\`multipart/form-data\`, for photos and
files). Each route's body has a limit, stated with it (${mb(JSON_BODY_LIMIT)} MB for JSON, ${mb(FORM_BODY_LIMIT)} MB for a form with a
photo); a larger body is a 413. Every error answer is JSON \`{ "message": "…" }\` with a
sentence for a person.

Every write (POST, PATCH, PUT, DELETE) of a signed-in user takes an optional \`Idempotency-Key\`
header (1 to 255 visible ASCII characters, e.g. a UUID), for a client that sends a request again
when its answer was lost. The same key with the same request (method, path and body) within 24
hours answers the first answer again, status and body, with \`Idempotent-Replayed: true\`, and
applies nothing. The same key with another request is a 409, and so is a second request while the
first is still running. Every answer but a server error (5xx) and a 429 is kept: after one of
those the request may be sent again with its key, and so may one whose answer never came because
the vault stopped while it ran (a restart forgets the keys of requests that had not finished).
Keys are per user, whether by session or token. An answer that hands out a secret shown once (an
access token's secret, the authenticator app's secret and backup codes) is not kept: the same key
again answers 409, without the secret.`;

/** Path parameters that are ids (or a year) are integers, the others (a name) strings, unless the route says (`params`). */
const isInteger = (name: string) => name === 'id' || name === 'year' || /[a-z]Id$/.test(name);

/** A stable camelCase name of the key: 'DELETE /beverages/{id}/cheer' → 'deleteBeveragesByIdCheer'. */
export function operationIdOf(key: string): string {
  const [method = '', path = ''] = key.split(' ');
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      return param ? `By${pascal(param[1]!)}` : pascal(segment);
    });
  return method.toLowerCase() + words.join('');
}

/** The optional header of every write of a signed-in user (src/http/idempotency.ts). */
const IDEMPOTENCY_KEY: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Sending the write again with the same key applies it once (see the introduction).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
};

function pathParameters(def: RouteDef, path: string, components: SchemaComponents) {
  const declared = def.params ? components.inline(def.params, 'input') : undefined;
  const schemas = (declared?.properties ?? {}) as Record<string, JsonSchema>;
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema:
      schemas[name!] ?? (isInteger(name!) ? { type: 'integer', minimum: 1 } : { type: 'string' }),
  }));
}

function queryParameters(def: RouteDef, components: SchemaComponents): JsonSchema[] {
  if (!def.query) return [];
  const json = components.inline(def.query, 'input');
  const required = new Set((json.required as string[] | undefined) ?? []);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBody(def: RouteDef, id: string, components: SchemaComponents) {
  if (def.json || def.form) {
    const content: Record<string, { schema: JsonSchema }> = {};
    if (def.json) {
      content['application/json'] = {
        schema: components.ref(def.json, 'input', `${pascal(id)}Body`),
      };
    }
    if (def.form) {
      const schema = components.ref(def.form, 'input', `${pascal(id)}Form`, true);
      content['multipart/form-data'] = { schema };
    }
    return { required: !def.jsonOptional, description: limitText(def), content };
  }
  if (def.upload) {
    const schema = { type: 'string', format: 'binary' };
    const content = { [def.upload.type]: { schema } };
    return { required: true, description: limitText(def), content };
  }
  return undefined;
}

const SECRET_ANSWER =
  'The answer holds a secret shown this once: it is not kept for an `Idempotency-Key`, and the ' +
  'key sent again answers 409 without it.';

/** The body limit of the route (a larger body is a 413), as the reference states it. */
function limitText(def: RouteDef): string {
  return `At most ${mb(bodyLimitOf(def))} MB.`;
}

const SUCCESS = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'Done; no content' } as const;

function responses(def: RouteDef, id: string, components: SchemaComponents) {
  const status = def.status ?? (def.answer || def.file ? 200 : 204);
  const answer: JsonSchema = { description: SUCCESS[status] };
  if (def.file) {
    answer.content = { [def.file]: { schema: { type: 'string', format: 'binary' } } };
  } else if (def.answer) {
    const schema = components.ref(def.answer, 'output', `${pascal(id)}Answer`);
    answer.content = { 'application/json': { schema } };
  }
  const all: Record<string, JsonSchema> = { [status]: answer };
  for (const error of errorStatuses(def)) {
    const known = ERROR_ANSWERS[error];
    all[error] = known
      ? { $ref: `#/components/responses/${known.name}` }
      : {
          description: 'An error; the message says what went wrong.',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } },
          },
        };
  }
  return all;
}

function operation(key: string, def: RouteDef, components: SchemaComponents): Operation {
  const path = key.slice(key.indexOf(' ') + 1);
  const operationId = operationIdOf(key);
  const parameters = [
    ...pathParameters(def, path, components),
    ...queryParameters(def, components),
    ...(key.startsWith('GET ') || def.access === 'public' ? [] : [IDEMPOTENCY_KEY]),
  ];
  const body = requestBody(def, operationId, components);
  const scope = def.access === 'read' || def.access === 'write' ? def.access : undefined;
  return {
    operationId,
    summary: def.summary,
    description: [
      `**Who may call:** ${ACCESS_WORDS[def.access]}`,
      def.description,
      def.secretAnswer ? SECRET_ANSWER : undefined,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: [def.tag],
    security: securityOf(def.access),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(def, operationId, components),
    'x-access': def.access,
    ...(scope ? { 'x-token-scope': scope } : {}),
  };
}

/** The tags in use, in the order of `apiTags` (then any other by name), with their descriptions. */
function tagsOf(routes: RouteDef[]): OpenApiDocument['tags'] {
  const used = new Set(routes.map((def) => def.tag));
  const order = Object.keys(apiTags);
  const rank = (tag: string) => (order.includes(tag) ? order.indexOf(tag) : order.length);
  return [...used]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => (apiTags[name] ? { name, description: apiTags[name] } : { name }));
}

/**
 * The document for a vault served at `origin` (without one, the server is the relative `/api`);
 * `routes` is the table (a test may give another). It is the same for every request: the route
 * serving it builds it once.
 */
export async function buildOpenApiDocument(
  options: { origin?: string; routes?: Record<string, RouteDef> } = {},
): Promise<OpenApiDocument> {
  const table: Record<string, RouteDef> = options.routes ?? apiRoutes;
  const components = new SchemaComponents(await contractSchemaNames());
  components.schemas.ErrorResponse = ERROR_SCHEMA;
  const paths: OpenApiDocument['paths'] = {};
  for (const [key, def] of Object.entries(table)) {
    const space = key.indexOf(' ');
    const path = key.slice(space + 1);
    (paths[path] ??= {})[key.slice(0, space).toLowerCase()] = operation(key, def, components);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'The vault API', version: packageJson.version, description: DESCRIPTION },
    servers: [{ url: `${options.origin ?? ''}/api` }],
    tags: tagsOf(Object.values(table)),
    paths,
    components: {
      schemas: components.schemas,
      responses: errorResponses(),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
