import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiRoutes } from '../../contract/routes/index.ts';
import { apiTags } from '../../contract/routes/meta.ts';
import { route } from '../../contract/routes/route.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/openapi/document.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * GET /api/openapi.json describes the route table: a document an OpenAPI 3.1 validator accepts,
 * with an operation for every route, and what each route's entry says (body, answer, errors,
 * who may call) said in OpenAPI's terms.
 */
let vault: TestVault;
let doc: OpenApiDocument;

beforeAll(async () => {
  vault = createTestVault();
  const res = await vault.request('/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  doc = (await res.json()) as OpenApiDocument;
});
afterAll(() => vault.close());

/** Every `$ref` in the document that points at nothing in it. */
function danglingRefs(value: unknown, root: unknown = value): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const refs: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string') {
      let target: unknown = root;
      for (const part of item.replace(/^#\//, '').split('/')) {
        target = (target as Record<string, unknown> | undefined)?.[part];
      }
      if (!item.startsWith('#/') || target === undefined) refs.push(item);
    } else {
      refs.push(...danglingRefs(item, root));
    }
  }
  return refs;
}

const operation = (key: keyof typeof apiRoutes) => {
  const [method, path] = key.split(' ') as [string, string];
  return doc.paths[path]![method.toLowerCase()]!;
};

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document that a validator accepts, whose references all resolve', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: `${vault.origin}/api` }]);
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(danglingRefs(doc)).toEqual([]);
  });

  it('describes every route of the table once and nothing else, each with its own operationId', () => {
    const described = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(described.sort()).toEqual(Object.keys(apiRoutes).sort());
    const ids = described.map((key) => {
      const [method, path] = key.split(' ') as [string, string];
      return doc.paths[path]![method.toLowerCase()]!.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(operation('DELETE /beverages/{id}/comments/{commentId}').operationId).toBe(
      'deleteBeveragesByIdCommentsByCommentId',
    );
  });

  it('gives every tag of the table a description', () => {
    const tags = new Set(Object.values(apiRoutes).map((def) => def.tag));
    const undescribed = [...tags].filter((tag) => !apiTags[tag]);
    expect(undescribed).toEqual([]);
    expect(doc.tags.map((tag) => tag.name).sort()).toEqual([...tags].sort());
  });

  it('describes commenting: the body, a 201 answer, the error answers and both ways to sign in', () => {
    const op = operation('POST /beverages/{id}/comments');
    expect(op.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } },
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: expect.stringContaining('applies it once'),
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
      },
    ]);
    expect(op.requestBody).toEqual({
      required: true,
      description: 'At most 1 MB.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CommentBody' } } },
    });
    expect(doc.components.schemas.CommentBody).toMatchObject({
      type: 'object',
      properties: { content: { type: 'string', minLength: 1, maxLength: 1000 } },
      required: ['content'],
    });
    const created = op.responses['201'] as {
      content: Record<string, { schema: { $ref: string } }>;
    };
    const answer = created.content['application/json']!.schema.$ref.split('/').pop()!;
    expect(doc.components.schemas[answer]).toMatchObject({
      properties: { comment: { $ref: '#/components/schemas/Comment' } },
      required: ['comment'],
    });
    expect(Object.keys(op.responses).sort()).toEqual(
      ['201', '400', '401', '403', '404', '415', '429'].sort(),
    );
    expect(op.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    expect(doc.components.responses.NotFound).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    });
    expect(doc.components.schemas.ErrorResponse).toMatchObject({
      properties: { message: { type: 'string' } },
      required: ['message'],
    });
    expect(op.security).toEqual([{ sessionCookie: [] }, { bearerToken: [] }]);
    expect(op['x-token-scope']).toBe('write');
    expect(op.description).toContain('`write` scope');
  });

  it('describes deleting a comment as a 204 without content, and reading comments as open to any token', () => {
    const deleted = operation('DELETE /activity/remote-entries/{id}/comments/{commentId}');
    expect(deleted.responses['204']).toEqual({ description: 'Done; no content' });
    expect(deleted.parameters?.map((p) => [p.name, p.schema])).toEqual([
      ['id', { type: 'integer', minimum: 1 }],
      ['commentId', { type: 'integer', minimum: 1 }],
      ['Idempotency-Key', expect.objectContaining({ type: 'string' })],
    ]);
    const read = operation('GET /beverages/{id}/comments');
    expect(read.parameters?.map((p) => p.name)).toEqual(['id']);
    expect(read['x-token-scope']).toBe('read');
    expect(read.security).toEqual([{ sessionCookie: [] }, { bearerToken: [] }]);
    expect(Object.keys(read.responses).sort()).toEqual(['200', '401', '404', '429']);
    expect(read.requestBody).toBeUndefined();
  });

  it('describes an import as a raw file body, and an import id and a session handle as text', () => {
    const upload = operation('POST /imports');
    expect(upload.requestBody).toEqual({
      required: true,
      description: 'At most 50 MB.',
      content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
    });
    const photo = operation('PATCH /beverages/{id}/tastings/{tastingId}');
    expect(photo.requestBody).toMatchObject({ description: 'At most 16 MB.' });
    expect(Object.keys(upload.responses)).toContain('413');
    const param = (key: keyof typeof apiRoutes) =>
      operation(key).parameters?.find((p) => p.name === 'id')?.schema;
    expect(param('GET /imports/{id}')).toMatchObject({ type: 'string' });
    expect(param('DELETE /auth/sessions/{id}')).toMatchObject({ type: 'string' });
    expect(param('DELETE /tokens/{id}')).toMatchObject({ type: 'integer' });
  });

  it('needs no sign-in for the document itself, and says so', () => {
    const op = operation('GET /openapi.json');
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses)).toEqual(['200']);
    expect(doc.components.securitySchemes).toMatchObject({
      sessionCookie: { type: 'apiKey', in: 'cookie', name: 'vault_session' },
      bearerToken: { type: 'http', scheme: 'bearer' },
    });
  });
});

describe('the OpenAPI document of a route table', () => {
  const table = {
    'GET /things': route({
      summary: 'Things',
      tag: 'Things',
      access: 'read',
      query: z.object({
        page: z.coerce.number().int().min(1).default(1).describe('The page, from 1'),
        q: z.string(),
      }),
      answer: z.object({ names: z.array(z.string()) }),
    }),
    'POST /things': route({
      summary: 'Make a thing',
      tag: 'Things',
      access: 'write',
      form: z.object({ name: z.string(), photo: z.instanceof(File).optional() }),
      answer: z.object({ id: z.number().int() }),
      status: 201,
    }),
    'PUT /things/{name}': route({
      summary: 'Rename a thing',
      tag: 'Things',
      access: 'admin',
      json: z.object({ to: z.string().default('x') }),
      jsonOptional: true,
      errors: [409],
    }),
    'GET /things/{id}/file': route({
      summary: 'A thing as CSV',
      tag: 'Things',
      access: 'session',
      params: z.object({ id: z.string().length(32) }),
      file: 'text/csv',
    }),
  };

  it("turns a route's query into parameters and its form into a multipart body with a file field", async () => {
    const built = await buildOpenApiDocument({ routes: table });
    expect(built.paths['/things']!.get!.parameters).toEqual([
      {
        name: 'page',
        in: 'query',
        required: false,
        description: 'The page, from 1',
        schema: { type: 'integer', minimum: 1, default: 1 },
      },
      { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
    ]);
    const post = built.paths['/things']!.post!;
    const multipart = (
      post.requestBody as { content: Record<string, { schema: { $ref: string } }> }
    ).content['multipart/form-data']!;
    const form = built.components.schemas[multipart.schema.$ref.split('/').pop()!];
    expect(form).toMatchObject({
      properties: { name: { type: 'string' }, photo: { type: 'string', format: 'binary' } },
      required: ['name'],
    });
    expect(Object.keys(post.responses)).toEqual(['201', '400', '401', '403', '413', '415', '429']);
    expect((await new Validator().validate(built as never)).valid).toBe(true);
  });

  it('marks an optional JSON body, a declared path parameter, a file answer and the errors of session-only and admin routes', async () => {
    const built = await buildOpenApiDocument({ routes: table });
    const put = built.paths['/things/{name}']!.put!;
    expect(put.parameters).toEqual([
      { name: 'name', in: 'path', required: true, schema: { type: 'string' } },
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    ]);
    expect(put.requestBody).toMatchObject({ required: false });
    expect(put.security).toEqual([{ sessionCookie: [] }]);
    expect(Object.keys(put.responses)).toEqual(['204', '400', '401', '403', '409', '415']);
    const file = built.paths['/things/{id}/file']!.get!;
    expect(file.responses['200']).toEqual({
      description: 'OK',
      content: { 'text/csv': { schema: { type: 'string', format: 'binary' } } },
    });
    expect(file.parameters).toEqual([
      {
        name: 'id',
        in: 'path',
        required: true,
        schema: { type: 'string', minLength: 32, maxLength: 32 },
      },
    ]);
    expect(file.security).toEqual([{ sessionCookie: [] }]);
    expect(file['x-token-scope']).toBeUndefined();
  });
});
