import fc from 'fast-check';
import { FORM_MODELS, JSON_MODELS, PASSWORD, USERNAME, WELL_FORMED, text } from './fuzz-models.ts';
import { paramNames, routeKey, type Route } from './routes.ts';

/**
 * Arbitrary requests for the fuzz test (test/api/fuzz.test.ts): path parameters, query strings,
 * headers and bodies, from valid-shaped to hostile. Values that depend on the running vault
 * (ids, the actor's password) are symbolic here and resolved when the request is sent.
 */

export const ACTORS = ['anonymous', 'user', 'admin'] as const;
export type Actor = (typeof ACTORS)[number];

/** Things of the fixture a path parameter or a body may name. */
export const REFS = [
  'ownEntry',
  'otherEntry',
  'ownUser',
  'otherUser',
  'adminUser',
  'ownKey',
  'otherKey',
  'ownSession',
  'otherSession',
  'ownUsername',
  'otherUsername',
  'photo',
  'avatar',
] as const;
export type Ref = (typeof REFS)[number];

export type Param = { ref: Ref } | { raw: string };

export { PASSWORD, USERNAME };

export type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'form'; fields: [string, string | Uint8Array][] };

export interface FuzzRequest {
  actor: Actor;
  /** A cookie header sent besides (or instead of) the actor's session. */
  junkCookie: string | null;
  params: Record<string, Param>;
  query: string;
  origin: 'own' | 'missing' | 'cross' | 'cross-fetch-site';
  contentType: 'right' | 'missing' | string;
  /** Inboxes only: no signature, or one whose key cannot be fetched (it fails fast). */
  signature: 'none' | 'fake' | 'input';
  body: Body;
}

const SPECIAL_PARAMS = [
  '0',
  '-1',
  '9007199254740993',
  '99999999999999999999999999',
  '1e3',
  '0x1F',
  '1.5',
  ' 1',
  'abc',
  'NaN',
  'null',
  '%00',
  '%',
  '%E0%A4%A',
  '%2e%2e%2f',
  '%F0%9F%A5%83',
  '%C3%BCn%C3%AFc%C3%B6d%C3%A9',
  'admin',
];

/** The refs a parameter of this name usually takes. */
const LIKELY: Record<string, readonly Ref[]> = {
  name: ['photo', 'avatar'],
  username: ['ownUsername', 'otherUsername'],
};

const param = (name: string): fc.Arbitrary<Param> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(LIKELY[name] ?? REFS)).map((ref) => ({ ref })) },
    { weight: 1, arbitrary: fc.constantFrom(...REFS).map((ref) => ({ ref })) },
    { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_PARAMS).map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.integer().map((n) => ({ raw: String(n) })) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
        .map((s) => ({ raw: encodeURIComponent(s) })),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 100, max: 5000 }).map((n) => ({ raw: 'x'.repeat(n) })),
    },
  );

const queryValue = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '1',
    '200',
    '201',
    '-1',
    'WHISKEY',
    'TO_TRY',
    'true',
    'ä',
    'x'.repeat(300),
  ),
  // Search text that means something to SQLite full-text search or LIKE.
  fc.constantFrom('"', 'abc"def', 'NEAR(abc def)', 'abc*', 'abc OR def', '(abc', 'name:abc', '%_%'),
  // Cursors that decode to something (they are base64url of "createdAt:id").
  fc
    .constantFrom('0:0', '999999999999999:999999999999999', '1:-1', 'x:y')
    .map((c) => Buffer.from(c).toString('base64url')),
  fc.string({ maxLength: 20 }),
  fc.integer().map(String),
);
const query: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom('limit', 'cursor', 'q', 'type', 'status', 'cellar', 'userId', '__proto__'),
      queryValue,
      { maxKeys: 4 },
    )
    .map((d) => `?${new URLSearchParams(d).toString()}`),
  fc.constantFrom(
    '?%',
    '?q=%E0%A4%A',
    '?limit=1&limit=2',
    '?cursor=' + 'A'.repeat(3000),
    '?q=%FF%FE',
  ),
);

const deep = fc
  .tuple(fc.constantFrom(33, 65, 100_000), fc.constantFrom('[', '{"a":'))
  .map(([n, open]) => open.repeat(n) + '1' + (open === '[' ? ']' : '}').repeat(n));
const malformed = fc.oneof(
  fc.constantFrom(
    '{',
    '{"username": "alice",',
    '[1, 2',
    '{"a": 1}}',
    'nul',
    '"',
    '\uFEFF{}',
    '{"a":"\\u12"}',
  ),
  fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1) || '{'),
);
const binary = fc.uint8Array({ maxLength: 2048 });
/** Over the 1 MB limit of every body but a photo upload (sent without a Content-Length). */
const OVER_A_MEGABYTE = `"${'x'.repeat(1024 * 1024)}"`;
const tinyJpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

function formBody(route: Route): fc.Arbitrary<Body> {
  const model = FORM_MODELS[routeKey(route)] ?? { fields: {} };
  const file = model.file ?? 'photo';
  const odd = fc.oneof(
    fc.constant<[string, string | Uint8Array]>([file, 'text where a file goes']),
    fc.constant<[string, string | Uint8Array]>(['name', tinyJpeg]),
    binary.map((b): [string, string | Uint8Array] => [file, b]),
    fc.constant<[string, string | Uint8Array]>([file, tinyJpeg]),
    fc.tuple(text, text),
  );
  return fc
    .tuple(
      fc.oneof(fc.record(model.fields), fc.record(model.fields, { requiredKeys: [] })),
      fc.array(odd, { maxLength: 3 }),
      fc.constantFrom(0, 0, 0, 70),
    )
    .map(([fields, extra, many]) => ({
      kind: 'form' as const,
      fields: [
        ...Object.entries(fields).filter((f): f is [string, string] => f[1] !== undefined),
        ...extra,
        ...Array.from({ length: many }, (_, i): [string, string] => [`f${i}`, 'x']),
      ],
    }));
}

function jsonModelBody(route: Route): fc.Arbitrary<Body> {
  const model = JSON_MODELS[routeKey(route)] ?? {};
  return fc
    .tuple(
      fc.oneof(fc.record(model), fc.record(model, { requiredKeys: [] })),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
      fc.boolean(),
    )
    .map(([fields, unknown, withUnknown]) => ({
      kind: 'json' as const,
      value: withUnknown ? { ...unknown, ...fields } : fields,
    }));
}

export function body(route: Route): fc.Arbitrary<Body> {
  if (route.method === 'GET' || route.method === 'HEAD') return fc.constant({ kind: 'none' });
  return fc.oneof(
    { weight: 4, arbitrary: jsonModelBody(route) },
    { weight: 3, arbitrary: formBody(route) },
    { weight: 2, arbitrary: fc.jsonValue().map((value) => ({ kind: 'json' as const, value })) },
    { weight: 1, arbitrary: deep.map((t) => ({ kind: 'text' as const, text: t })) },
    { weight: 1, arbitrary: malformed.map((t) => ({ kind: 'text' as const, text: t })) },
    { weight: 1, arbitrary: binary.map((bytes) => ({ kind: 'bytes' as const, bytes })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'text' as const, text: OVER_A_MEGABYTE }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
}

function wildRequest(route: Route): fc.Arbitrary<FuzzRequest> {
  const params = Object.fromEntries(paramNames(route.path).map((name) => [name, param(name)]));
  return fc.record({
    actor: fc.constantFrom(...ACTORS),
    junkCookie: fc.option(fc.constantFrom('vault_session=garbage', 'vault_session=', 'a=b; c'), {
      freq: 5,
    }),
    params: fc.record(params),
    query,
    origin: fc.oneof(
      { weight: 15, arbitrary: fc.constant('own' as const) },
      fc.constantFrom('missing' as const, 'cross' as const, 'cross-fetch-site' as const),
    ),
    contentType: fc.oneof(
      { weight: 16, arbitrary: fc.constant('right') },
      fc.constantFrom(
        'missing',
        'text/plain',
        'application/json',
        'application/activity+json',
        'multipart/form-data',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
      ),
    ),
    signature: fc.constantFrom('none' as const, 'fake' as const, 'fake' as const, 'input' as const),
    body: body(route),
  });
}

/** What a route's parameter names when the vault's own client sends it. */
const NATURAL: Record<string, Ref> = {
  'DELETE /api/auth/sessions/:id': 'ownSession',
  'PATCH /api/users/:id': 'otherUser',
  'GET /api/webauthn/admin/users/:id/credentials': 'otherUser',
  'DELETE /api/webauthn/credentials/:id': 'ownKey',
  'DELETE /api/webauthn/admin/credentials/:id': 'otherKey',
  'GET /media/avatars/:name': 'avatar',
};
const NATURAL_BY_NAME: Record<string, Ref> = {
  id: 'ownEntry',
  username: 'ownUsername',
  name: 'photo',
};

/** A request as the vault's own client would send it, with a well-formed body. */
function wellFormedRequest(route: Route): fc.Arbitrary<FuzzRequest> {
  const params = Object.fromEntries(
    paramNames(route.path).map((name) => [
      name,
      { ref: NATURAL[routeKey(route)] ?? NATURAL_BY_NAME[name] ?? 'ownEntry' },
    ]),
  );
  const bodies = (WELL_FORMED[routeKey(route)] ?? [null]).map((b): Body =>
    b === null
      ? { kind: 'none' }
      : 'json' in b
        ? { kind: 'json', value: b.json }
        : { kind: 'form', fields: Object.entries(b.form) },
  );
  return wildRequest(route).chain((r) =>
    fc.constantFrom(...bodies).map((body) => ({
      ...r,
      junkCookie: null,
      params,
      origin: 'own' as const,
      contentType: 'right',
      signature: 'fake' as const,
      body,
    })),
  );
}

export function fuzzRequest(route: Route): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: wildRequest(route) },
    { weight: 1, arbitrary: wellFormedRequest(route) },
  );
}
