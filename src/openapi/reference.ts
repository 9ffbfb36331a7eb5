import { ACCESS_WORDS, ERROR_ANSWERS } from './access.ts';
import type { OpenApiDocument, Operation } from './document.ts';
import { fieldRows, typeText, type Components } from './schema-rows.ts';
import type { JsonSchema } from './schemas.ts';

/**
 * The API reference for people (docs/api.md), rendered from the OpenAPI document: the routes by
 * tag, each with who may call it, its parameters, body, answer and errors. `npm run docs:api`
 * writes it (scripts/docs-api.ts); a test fails when the file is not what it would write.
 */

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** A Markdown table; a last column (the description) empty in every row is left out. */
function table(head: string[], rows: string[][]): string[] {
  if (head.at(-1) === 'Description' && rows.every((row) => !row.at(-1))) {
    return table(
      head.slice(0, -1),
      rows.map((row) => row.slice(0, -1)),
    );
  }
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
    '',
  ];
}

/** A body or answer: its fields as a table, or its type when it has no fields to list. */
function schemaBlock(schema: JsonSchema, components: Components): string[] {
  const rows = fieldRows(schema, components);
  if (rows.length === 0) return [`A JSON value: ${typeText(schema, components)}.`, ''];
  return table(
    ['Field', 'Type', 'Required', 'Description'],
    rows.map((row) => [`\`${row.field}\``, row.type, row.required ? 'yes' : 'no', row.description]),
  );
}

function parameters(op: Operation, components: Components): string[] {
  if (!op.parameters?.length) return [];
  const rows = op.parameters.map((p) => {
    const schema = (p.schema ?? {}) as JsonSchema;
    const extra =
      schema.default !== undefined ? ` Default: \`${JSON.stringify(schema.default)}\`.` : '';
    const description = `${typeof p.description === 'string' ? p.description : ''}${extra}`.trim();
    return [
      `\`${String(p.name)}\``,
      String(p.in),
      typeText(schema, components),
      p.required ? 'yes' : 'no',
      description,
    ];
  });
  return ['**Parameters**', '', ...table(['Name', 'In', 'Type', 'Required', 'Description'], rows)];
}

function requestBody(op: Operation, components: Components): string[] {
  const content = op.requestBody?.content as Record<string, { schema: JsonSchema }> | undefined;
  if (!content) return [];
  const [mediaType, { schema }] = Object.entries(content)[0]!;
  const required = op.requestBody?.required ? '' : ', may be left out';
  const limit = op.requestBody?.description ? ` ${op.requestBody.description as string}` : '';
  return [
    `**Body** (\`${mediaType}\`${required}).${limit}`,
    '',
    ...schemaBlock(schema, components),
  ];
}

function answer(op: Operation, components: Components): string[] {
  const [status, response] = Object.entries(op.responses).find(([s]) => s.startsWith('2'))!;
  const content = response.content as Record<string, { schema: JsonSchema }> | undefined;
  if (!content) return [`**Answer:** \`${status}\`, no content.`, ''];
  const [mediaType, { schema }] = Object.entries(content)[0]!;
  if (mediaType !== 'application/json')
    return [`**Answer:** \`${status}\`, a \`${mediaType}\` file.`, ''];
  return [`**Answer:** \`${status}\` (\`${mediaType}\`)`, '', ...schemaBlock(schema, components)];
}

function errors(op: Operation): string[] {
  const statuses = Object.keys(op.responses).filter((s) => !s.startsWith('2'));
  if (statuses.length === 0) return [];
  return [`**Errors:** ${statuses.map((s) => `\`${s}\``).join(', ')}`, ''];
}

function route(method: string, path: string, op: Operation, components: Components): string[] {
  return [
    `### ${method.toUpperCase()} /api${path}`,
    '',
    op.summary,
    '',
    `**Who may call:** ${ACCESS_WORDS[op['x-access']]}`,
    '',
    ...(op.description.includes('\n\n')
      ? [op.description.slice(op.description.indexOf('\n\n') + 2), '']
      : []),
    ...parameters(op, components),
    ...requestBody(op, components),
    ...answer(op, components),
    ...errors(op),
  ];
}

/** docs/api.md for the document (before formatting). */
export function renderReference(doc: OpenApiDocument): string {
  const components = doc.components.schemas;
  const lines = [
    `# ${doc.info.title}`,
    '',
    '<!-- Written by `npm run docs:api` from the route table (contract/routes/): do not edit by hand. -->',
    '',
    doc.info.description,
    '',
    'The same description, as an OpenAPI 3.1 document for tools: `GET /api/openapi.json`. Paths',
    "below are under the vault's origin; ids in paths are integers.",
    '',
    '## Errors',
    '',
    'An error answer is JSON `{ "message": "…" }`. The statuses a route lists mean:',
    '',
    ...table(
      ['Status', 'Meaning'],
      Object.entries(ERROR_ANSWERS).map(([status, { description }]) => [
        `\`${status}\``,
        description,
      ]),
    ),
  ];
  for (const tag of doc.tags) {
    lines.push(`## ${tag.name}`, '');
    if (tag.description) lines.push(tag.description, '');
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (op.tags[0] === tag.name) lines.push(...route(method, path, op, components));
      }
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
