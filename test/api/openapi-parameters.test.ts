import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiRoutes } from '../../contract/routes/index.ts';
import type { RouteDef } from '../../contract/routes/route.ts';
import { buildOpenApiDocument, type OpenApiDocument } from '../../src/openapi/document.ts';
import { renderReference } from '../../src/openapi/reference.ts';
import type { JsonSchema } from '../../src/openapi/schemas.ts';

/**
 * Every query of the route table, as tools read it from the OpenAPI document: each field of a
 * route's `query` schema is a query parameter, required when the schema needs it, whose type,
 * values and bounds are what the schema accepts (each probed against the schema itself), and
 * docs/api.md lists it under its route.
 */
let doc: OpenApiDocument;
let page: string;

beforeAll(async () => {
  doc = await buildOpenApiDocument();
  page = renderReference(doc);
});

const table = apiRoutes as Record<string, RouteDef>;
const queried = Object.entries(table).filter(
  (entry): entry is [string, RouteDef & { query: z.ZodObject }] => entry[1].query !== undefined,
);

function operationOf(key: string) {
  const [method, path] = key.split(' ') as [string, string];
  return doc.paths[path]![method.toLowerCase()]!;
}

/** What a schema says the field takes that the field itself does not: empty when they agree. */
function disagreements(field: z.ZodType, schema: JsonSchema): string[] {
  const accepts = (value: string) => field.safeParse(value).success;
  const wrong: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) wrong.push(what);
  };
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum) expect(accepts(String(value)), `accepts ${value}`);
    expect(!accepts('NOT-ONE-OF-THEM'), 'refuses a value outside the enum');
  } else if (schema.type === 'integer') {
    const min = schema.minimum as number | undefined;
    const max = schema.maximum as number | undefined;
    expect(typeof min === 'number', 'has a minimum');
    if (typeof min === 'number') {
      expect(accepts(String(min)), `accepts its minimum ${min}`);
      expect(!accepts(String(min - 1)), `refuses ${min - 1}`);
    }
    if (typeof max === 'number') {
      expect(accepts(String(max)), `accepts its maximum ${max}`);
      expect(!accepts(String(max + 1)), `refuses ${max + 1}`);
    }
    expect(!accepts('1.5') && !accepts('ten'), 'refuses what is not a whole number');
  } else {
    expect(schema.type === 'string', `is a string, an integer or an enum (${String(schema.type)})`);
    const maxLength = schema.maxLength as number | undefined;
    const minLength = schema.minLength as number | undefined;
    const bounded = typeof maxLength === 'number' || typeof schema.pattern === 'string';
    expect(bounded, 'has a maximum length or a pattern');
    if (typeof maxLength === 'number') {
      expect(!accepts('a'.repeat(maxLength + 1)), `refuses ${maxLength + 1} characters`);
    }
    if (typeof minLength === 'number' && minLength > 0) {
      expect(!accepts('a'.repeat(minLength - 1)), `refuses ${minLength - 1} characters`);
    }
    if (typeof schema.pattern === 'string') {
      expect(!accepts('does not match!'), 'refuses a value outside its pattern');
    }
  }
  return wrong;
}

describe('the query parameters of the OpenAPI document', () => {
  it('has routes with a query to check', () => {
    expect(queried.map(([key]) => key)).toEqual(
      expect.arrayContaining(['GET /beverages', 'GET /activity', 'GET /export']),
    );
  });

  it.each(queried.map(([key, def]) => [key, def] as const))(
    '%s: every field of its query is a parameter with its type, values and bounds',
    (key, def) => {
      const parameters = (operationOf(key).parameters ?? []).filter((p) => p.in === 'query');
      const shape = def.query.shape as Record<string, z.ZodType>;
      expect(parameters.map((p) => p.name).sort()).toEqual(Object.keys(shape).sort());
      const wrong: Record<string, string[]> = {};
      for (const parameter of parameters) {
        const name = String(parameter.name);
        const field = shape[name]!;
        const schema = parameter.schema as JsonSchema;
        const found = disagreements(field, schema);
        const required = !field.safeParse(undefined).success;
        if (parameter.required !== required) found.push(`required: ${required}`);
        if (found.length > 0) wrong[name] = found;
      }
      expect(wrong).toEqual({});
    },
  );

  it('lists each in docs/api.md under its route, with its type in words', () => {
    const missing: string[] = [];
    for (const [key] of queried) {
      const [method, path] = key.split(' ') as [string, string];
      const start = page.indexOf(`\n### ${method} /api${path}\n`);
      const section = page.slice(start, page.indexOf('\n### ', start + 1));
      for (const parameter of operationOf(key).parameters ?? []) {
        if (parameter.in !== 'query') continue;
        if (!section.includes(`| \`${String(parameter.name)}\` | query |`)) {
          missing.push(`${key} ${String(parameter.name)}`);
        }
      }
    }
    expect(missing).toEqual([]);
    const list = page.slice(page.indexOf('\n### GET /api/beverages\n'));
    expect(list).toContain('| `limit` | query | integer, 1–200 | no |');
    expect(list).toContain('| `type` | query | one of "WHISKEY", "WINE", "BEER" | no |');
  });

  it('leaves no schema among the components that nothing refers to, and still validates', async () => {
    const text = JSON.stringify(doc);
    const unused = Object.keys(doc.components.schemas).filter(
      (name) => !text.includes(`"#/components/schemas/${name}"`),
    );
    expect(unused).toEqual([]);
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
  });
});
