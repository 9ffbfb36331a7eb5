import type { JsonSchema } from './schemas.ts';

/**
 * A JSON Schema of the OpenAPI document as rows for people (docs/api.md): one per field, nested
 * fields with a dotted name (`comment.author.fullName`, `comments[].id`), each with its type in
 * words, whether it is required and its description.
 */

export interface FieldRow {
  field: string;
  type: string;
  required: boolean;
  description: string;
}

const COMPONENTS = '#/components/schemas/';
/** How deep nested fields are listed; deeper ones are named by their type only. */
const MAX_DEPTH = 4;

export type Components = Record<string, JsonSchema>;

/** The schema a `$ref` names, or the schema itself. */
export function resolve(schema: JsonSchema, components: Components): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(COMPONENTS)) {
    return components[ref.slice(COMPONENTS.length)] ?? {};
  }
  return schema;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function bounds(min: unknown, max: unknown, unit?: string): string {
  const u = (n: number) => (unit ? plural(n, unit) : String(n));
  if (typeof min === 'number' && typeof max === 'number') {
    return min === max ? `exactly ${u(min)}` : `${min}–${u(max)}`;
  }
  if (typeof min === 'number') return `at least ${u(min)}`;
  if (typeof max === 'number') return `at most ${u(max)}`;
  return '';
}

/** A schema's type in words: `string, 1–1000 characters`, `integer or null`, `array of Comment`. */
export function typeText(schema: JsonSchema, components: Components): string {
  const ref = schema.$ref;
  if (typeof ref === 'string') return ref.slice(ref.lastIndexOf('/') + 1);
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) return union.map((part) => typeText(part, components)).join(' or ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  const words = types
    .filter((type): type is string => typeof type === 'string')
    .map((type) => {
      if (type === 'array') {
        const items = (schema.items ?? {}) as JsonSchema;
        const of = typeText(items, components);
        return `array of ${of.includes(' ') ? `(${of})` : of}`;
      }
      if (type === 'string') {
        if (schema.format === 'binary') return 'file';
        const length = bounds(schema.minLength, schema.maxLength, 'character');
        const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
        return `string${format}${length ? `, ${length}` : ''}`;
      }
      if (type === 'integer' || type === 'number') {
        const range = bounds(schema.minimum, schema.maximum);
        return `${type}${range ? `, ${range}` : ''}`;
      }
      return type;
    });
  return words.length > 0 ? words.join(' or ') : 'any';
}

/** The object a schema describes, when it has fields to list (through a `$ref`, a nullable one). */
function objectOf(schema: JsonSchema, components: Components): JsonSchema | undefined {
  const resolved = resolve(schema, components);
  if (resolved.properties) return resolved;
  const union = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  const objects = union?.filter((part) => resolve(part, components).properties);
  return objects?.length === 1 ? resolve(objects[0]!, components) : undefined;
}

function describe(schema: JsonSchema): string {
  const parts: string[] = [];
  if (typeof schema.description === 'string') parts.push(schema.description);
  if (schema.default !== undefined) parts.push(`Default: \`${JSON.stringify(schema.default)}\`.`);
  return parts.join(' ');
}

/** The fields of an object schema, nested ones after their parent. */
export function fieldRows(
  schema: JsonSchema,
  components: Components,
  prefix = '',
  depth = 0,
): FieldRow[] {
  const object = objectOf(schema, components);
  if (!object) return variantRows(schema, components, prefix, depth);
  const required = new Set((object.required as string[] | undefined) ?? []);
  const rows: FieldRow[] = [];
  for (const [name, property] of Object.entries(object.properties as Record<string, JsonSchema>)) {
    const field = `${prefix}${name}`;
    const own = resolve(property, components);
    rows.push({
      field,
      type: typeText(property, components),
      required: required.has(name),
      description: describe({ ...own, ...property }),
    });
    if (depth + 1 >= MAX_DEPTH) continue;
    const items = own.type === 'array' ? (own.items as JsonSchema | undefined) : undefined;
    if (items) rows.push(...fieldRows(items, components, `${field}[].`, depth + 1));
    else rows.push(...fieldRows(property, components, `${field}.`, depth + 1));
  }
  return rows;
}

/**
 * The fields of a union of objects (a discriminated one, say), each variant's after the other,
 * each row saying which variant it belongs to: by the value of a field all variants fix
 * (`kind` is "local"), or else by the variant's name.
 */
function variantRows(
  schema: JsonSchema,
  components: Components,
  prefix: string,
  depth: number,
): FieldRow[] {
  const resolved = resolve(schema, components);
  const union = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  const variants = union?.filter((part) => objectOf(part, components));
  if (!variants || variants.length < 2) return [];
  return variants.flatMap((variant, index) => {
    const properties = (objectOf(variant, components)!.properties ?? {}) as Record<
      string,
      JsonSchema
    >;
    const fixed = Object.entries(properties).find(([, p]) => p.const !== undefined);
    const label = fixed
      ? `When \`${fixed[0]}\` is ${JSON.stringify(fixed[1].const)}`
      : `As ${typeof variant.$ref === 'string' ? typeText(variant, components) : `variant ${index + 1}`}`;
    return fieldRows(variant, components, prefix, depth).map((row) => ({
      ...row,
      description: `${label}: ${row.description}`.replace(/: $/, '.'),
    }));
  });
}
