import { globalRegistry, z } from 'zod';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) as plain JSON. */
export type JsonSchema = { [key: string]: unknown };

/** Which side of a zod schema: what a caller sends (`input`) or what the server answers (`output`). */
export type Side = 'input' | 'output';

const COMPONENTS = '#/components/schemas/';

/** A file field of a form: any schema zod cannot describe in JSON (`z.instanceof(File)`, `z.custom`). */
const FILE: JsonSchema = { type: 'string', format: 'binary' };

/** Where zod looks up a schema's metadata: its description and, for a named shape, its `id`. */
type Metadata = (schema: z.ZodType) => Record<string, unknown> | undefined;

const plainMetadata: Metadata = (schema) => globalRegistry.get(schema);

/**
 * A zod schema as JSON Schema 2020-12. The bounds zod writes on every integer (the safe-integer
 * range) are left out, as is what JSON cannot say (a date object, a transform's output): that is
 * `{}`, or a file in a form. Schemas with an `id` (the named shapes) and recursive ones are
 * extracted under `$defs`, for the caller to place.
 */
function convert(schema: z.ZodType, side: Side, metadata: Metadata, form = false): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: side,
    metadata: { get: metadata } as unknown as typeof globalRegistry,
    unrepresentable: 'any',
    reused: 'inline',
    cycles: 'ref',
    override: ({ zodSchema, jsonSchema }) => {
      const schemaJson = jsonSchema as JsonSchema;
      if (schemaJson.minimum === Number.MIN_SAFE_INTEGER) delete schemaJson.minimum;
      if (schemaJson.maximum === Number.MAX_SAFE_INTEGER) delete schemaJson.maximum;
      if (form && zodSchema._zod.def.type === 'custom') Object.assign(schemaJson, FILE);
      // A whole number sent as text is described as the integer it carries
      // (contract/query-fields.ts): the text's pattern says nothing of an integer.
      if (schemaJson.type === 'integer') delete schemaJson.pattern;
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** Rewrites `$ref`s to the schema's own `$defs` (and to itself, `#`) into component references. */
function relink(value: unknown, names: Map<string, string>, self: string): unknown {
  if (Array.isArray(value)) return value.map((item) => relink(item, names, self));
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonSchema = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$ref' && typeof item === 'string') {
      const def = item.startsWith('#/$defs/') ? item.slice('#/$defs/'.length) : undefined;
      out.$ref =
        item === '#' ? COMPONENTS + self : def ? COMPONENTS + (names.get(def) ?? def) : item;
    } else {
      out[key] = relink(item, names, self);
    }
  }
  return out;
}

/**
 * The reusable schemas of the document (`components/schemas`). A named shape of the contract
 * (src/openapi/names.ts) is one component wherever it appears, with `Input` added to its name
 * when what a caller sends differs from what the server answers (defaults, transforms). A route's
 * body or answer that is no named shape is a component named for the first route using it.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly #names: Map<z.ZodType, string>;
  readonly #inputDiffers = new Map<z.ZodType, boolean>();
  readonly #unnamed = new Map<z.ZodType, Partial<Record<Side, string>>>();
  readonly #metadata: Record<Side, Metadata>;

  constructor(names: Map<z.ZodType, string> = new Map()) {
    this.#names = names;
    this.#metadata = { input: this.#metadataFor('input'), output: this.#metadataFor('output') };
  }

  /** A reference to the component for the schema on that side, made on its first use. */
  ref(schema: z.ZodType, side: Side, fallbackName: string, form = false): JsonSchema {
    const named = this.#nameOf(schema, side);
    if (named) {
      if (!(named in this.schemas)) this.#add(schema, side, named, form);
      return { $ref: COMPONENTS + named };
    }
    const known = this.#unnamed.get(schema) ?? {};
    let name = known[side];
    if (!name) {
      name = this.#free(fallbackName);
      this.#unnamed.set(schema, { ...known, [side]: name });
      this.#add(schema, side, name, form);
    }
    return { $ref: COMPONENTS + name };
  }

  /**
   * The schema written out in place (a query's fields), even when it is a named shape: no
   * component is made for it. Its fields may still refer to components.
   */
  inline(schema: z.ZodType, side: Side): JsonSchema {
    const named = this.#metadata[side];
    const metadata: Metadata = (s) => {
      const meta = named(s);
      if (s !== schema || !meta) return meta;
      const { id: _id, ...rest } = meta;
      return rest;
    };
    return this.#place(convert(schema, side, metadata), 'Query');
  }

  #add(schema: z.ZodType, side: Side, name: string, form: boolean): void {
    this.schemas[name] = {};
    const json = this.#place(convert(schema, side, this.#metadata[side], form), name);
    // A named shape at the root is extracted as a def of its own name: the root is then a
    // reference to what #place has just put there.
    if (json.$ref !== COMPONENTS + name) this.schemas[name] = json;
  }

  /** Moves the schema's `$defs` into the components and points its references at them. */
  #place(converted: JsonSchema, owner: string): JsonSchema {
    const { $defs, ...json } = converted;
    const defs = ($defs ?? {}) as Record<string, JsonSchema>;
    const defNames = new Map<string, string>();
    for (const def of Object.keys(defs)) {
      defNames.set(def, def.startsWith('__schema') ? this.#free(`${owner}Part`) : def);
    }
    for (const [def, defJson] of Object.entries(defs)) {
      const name = defNames.get(def)!;
      if (!this.schemas[name] || Object.keys(this.schemas[name]).length === 0) {
        this.schemas[name] = relink(defJson, defNames, name) as JsonSchema;
      }
    }
    return relink(json, defNames, owner) as JsonSchema;
  }

  #metadataFor(side: Side): Metadata {
    return (schema) => {
      const meta = globalRegistry.get(schema);
      const id = this.#nameOf(schema, side);
      return id ? { ...meta, id } : meta;
    };
  }

  #nameOf(schema: z.ZodType, side: Side): string | undefined {
    const name = this.#names.get(schema);
    if (!name || side === 'output') return name;
    let differs = this.#inputDiffers.get(schema);
    if (differs === undefined) {
      const [input, output] = (['input', 'output'] as const).map((io) =>
        JSON.stringify(convert(schema, io, plainMetadata)),
      );
      differs = input !== output;
      this.#inputDiffers.set(schema, differs);
    }
    return differs ? `${name}Input` : name;
  }

  #free(base: string): string {
    let name = base;
    for (let n = 2; name in this.schemas; n++) name = `${base}${n}`;
    return name;
  }
}

/** 'remote-entries' → 'RemoteEntries', 'input' → 'Input'. */
export function pascal(word: string): string {
  return word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
