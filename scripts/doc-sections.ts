// The generated sections of docs/architecture.md and docs/social.md, as `npm run docs:architecture`
// writes them: each list between `<!-- generated: NAME … -->` and `<!-- end generated: NAME -->`
// is rendered from the code (scripts/code-facts.ts), the rest of the page is left as it is, and
// the page is formatted as prettier formats the repository. test/lint/generated-docs.test.ts
// fails when a page is not what this would write now.
import fs from 'node:fs';
import path from 'node:path';
import prettier from 'prettier';
import { ACTIVITY_TYPES } from '../src/db/schema/activities.ts';
import {
  docsFiles,
  federationImportsOfSrc,
  outboxHandlers,
  queryBuilderModules,
  ROOT,
  routeTableFiles,
  schemaFiles,
  sqlModules,
} from './code-facts.ts';

const code = (text: string) => `\`${text}\``;
const list = (items: string[]) => items.join(', ');

function schemaList(): string {
  return schemaFiles()
    .map(({ file, tables }) => `- ${code(file)}: ${list(tables.map(code))}`)
    .join('\n');
}

function federationImportList(): string {
  return federationImportsOfSrc()
    .map(({ module, importers }) => `- ${code(module)}, imported by ${list(importers.map(code))}`)
    .join('\n');
}

const isRepository = (file: string) => file.endsWith('repository.ts');

function sqlOutsideRepositoriesList(): string {
  return sqlModules()
    .filter((file) => !isRepository(file))
    .map((file) => `- ${code(file)}`)
    .join('\n');
}

function queryBuilderList(): string {
  return list(queryBuilderModules().map(code));
}

function activityKindTable(): string {
  const { local, federating } = outboxHandlers();
  const rows = ACTIVITY_TYPES.map((type) => {
    const locals = local.filter((h) => h.type === type).map((h) => code(h.file));
    const remote = federating
      .filter((h) => h.types.includes(type))
      .map((h) => `${code(h.name)} (${code(h.file)})`);
    return `| ${type} | ${list(locals) || '—'} | ${list(remote) || '—'} |`;
  });
  return [
    '| Activity | Delivered locally by (`outbox.on`) | Handed to Fedify by (`outbox.federate`) |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}

function federatingHandlerList(): string {
  return outboxHandlers()
    .federating.map(({ name, types, file }) => `- ${code(file)} (${code(name)}): ${list(types)}`)
    .join('\n');
}

async function routeFileList(): Promise<string> {
  return (await routeTableFiles())
    .map(({ file, routes, tags }) =>
      routes === 0
        ? `- ${code(file)}`
        : `- ${code(file)}: ${routes} route${routes === 1 ? '' : 's'} (${list(tags)})`,
    )
    .join('\n');
}

function docsList(): string {
  return docsFiles()
    .map(({ file, title }) => `- [${file}](${path.basename(file)}): ${title}`)
    .join('\n');
}

/** Each page with generated sections, and how each of its sections is rendered. */
const PAGES: Record<string, Record<string, () => string | Promise<string>>> = {
  'docs/architecture.md': {
    'schema-files': schemaList,
    'federation-imports': federationImportList,
    'sql-outside-repositories': sqlOutsideRepositoriesList,
    'query-builder': queryBuilderList,
    'activity-kinds': activityKindTable,
    'route-files': routeFileList,
    docs: docsList,
  },
  'docs/social.md': {
    'federating-handlers': federatingHandlerList,
  },
};

export const GENERATED_PAGES = Object.keys(PAGES);

const begin = (name: string) => `<!-- generated: ${name} (npm run docs:architecture) -->`;
const end = (name: string) => `<!-- end generated: ${name} -->`;

/** `page` (repository-relative) as it is now, with every generated section rendered from the code. */
export async function generatedPage(page: string): Promise<string> {
  return renderPage(page, fs.readFileSync(path.join(ROOT, page), 'utf8'));
}

/** `text`, the content of `page`, with every generated section rendered from the code. */
export async function renderPage(page: string, text: string): Promise<string> {
  const file = path.join(ROOT, page);
  for (const [name, render] of Object.entries(PAGES[page] ?? {})) {
    const from = text.indexOf(begin(name));
    const to = text.indexOf(end(name));
    if (from === -1 || to < from) {
      throw new Error(`${page} has no section "${name}": add ${begin(name)} and ${end(name)}`);
    }
    // A section inside a list item is indented as its markers are.
    const indent = /[ \t]*$/.exec(text.slice(0, from))![0];
    const body = (await render()).replaceAll('\n', `\n${indent}`);
    text = `${text.slice(0, from)}${begin(name)}\n\n${indent}${body}\n\n${indent}${text.slice(to)}`;
  }
  const config = await prettier.resolveConfig(file);
  return prettier.format(text, { ...config, filepath: file });
}
