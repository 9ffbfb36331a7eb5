import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

/** The paths named (in backquotes) in the first column of docs/architecture.md's folder table. */
function namedInFolderTable(): Set<string> {
  const doc = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
  const start = doc.indexOf('\n## Folders\n');
  expect(start).toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
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

describe("docs/architecture.md's folder table", () => {
  it('names every folder and file directly under src/', () => {
    const named = namedInFolderTable();
    const missing = entries('src').filter((p) => !named.has(p));
    expect(missing).toEqual([]);
  });

  it('names every top-level folder of the repository but src/ (whose parts it names)', () => {
    const named = namedInFolderTable();
    // data/ is the default VAULT_DATA_DIR (not in git); node_modules/ is npm's.
    const notCode = new Set(['src/', 'data/', 'node_modules/']);
    const missing = entries('')
      .filter((p) => p.endsWith('/') && !notCode.has(p))
      .filter((p) => !named.has(p));
    expect(missing).toEqual([]);
  });
});
