import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadedAtStart } from '../../eslint.layers.js';
import { federationLoadedWithSrc, foldersIn, routeDefFields } from '../../scripts/code-facts.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const architecture = () => fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');

/** The paths named (in backquotes) in the first column of the tables under `heading`. */
export function namedInTables(doc: string, heading: string): Set<string> {
  const start = doc.indexOf(`\n${heading}\n`);
  expect(start, `docs/architecture.md has no "${heading}"`).toBeGreaterThan(-1);
  const next = doc.slice(start + 1).search(/\n#{2,3} /);
  const section = doc.slice(start, next === -1 ? undefined : start + 1 + next);
  const named = new Set<string>();
  for (const line of section.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const m of firstCell.matchAll(/`([^`]+)`/g)) named.add(m[1]!);
  }
  return named;
}

/** Names in `dir` (relative to the repository), folders with a trailing slash. */
function entries(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.'))
    .map((e) => `${dir ? `${dir}/` : ''}${e.name}${e.isDirectory() ? '/' : ''}`);
}

const exists = (named: string) => fs.existsSync(path.join(root, named));

describe("docs/architecture.md's folder table", () => {
  const named = () => namedInTables(architecture(), '## Folders');

  it('names every folder and file directly under src/', () => {
    const table = named();
    expect(entries('src').filter((p) => !table.has(p))).toEqual([]);
  });

  it('names every top-level folder of the repository but src/ (whose parts it names)', () => {
    const table = named();
    // data/ is the default VAULT_DATA_DIR (not in git); node_modules/ is npm's.
    const notCode = new Set(['src/', 'data/', 'node_modules/']);
    const missing = entries('')
      .filter((p) => p.endsWith('/') && !notCode.has(p))
      .filter((p) => !table.has(p));
    expect(missing).toEqual([]);
  });

  it('names only what exists', () => {
    expect([...named()].filter((p) => !exists(p))).toEqual([]);
  });

  it('fails for a folder the table does not name', () => {
    const table = namedInTables(architecture().replace('| `src/feed/`', '| feed'), '## Folders');
    expect(entries('src').filter((p) => !table.has(p))).toEqual(['src/feed/']);
  });
});

describe("docs/architecture.md's table of the client's folders", () => {
  const named = () => namedInTables(architecture(), "### The client's folders");

  it('names every folder of web/src/, and only those', () => {
    const table = named();
    expect(foldersIn('web/src').filter((p) => !table.has(p))).toEqual([]);
    expect([...table].filter((p) => !exists(p) || !p.endsWith('/'))).toEqual([]);
  });
});

describe('the federation modules that load with src/', () => {
  it('are each in loadedAtStart of eslint.layers.js, which lints them to take Fedify types only', () => {
    const loaded = federationLoadedWithSrc();
    expect(loaded).toContain('federation/gateway.ts');
    expect(loaded.filter((m) => !loadedAtStart.includes(m))).toEqual([]);
  });

  it('are listed in loadedAtStart by paths that exist', () => {
    expect(loadedAtStart.filter((m) => !exists(m))).toEqual([]);
  });
});

describe('"The route table"', () => {
  it('names every field a route of the table may have (RouteDef)', () => {
    const doc = architecture();
    const start = doc.indexOf('\n## The route table\n');
    const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
    const fields = routeDefFields();
    expect(fields).toContain('summary');
    expect(fields.filter((field) => !section.includes(`\`${field}\``))).toEqual([]);
  });
});

describe('the documents', () => {
  it('are each linked from the README', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const docs = entries('docs').filter((p) => p.endsWith('.md'));
    expect(docs.filter((doc) => !readme.includes(`](${doc})`))).toEqual([]);
  });
});
