import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqlModules } from '../../scripts/code-facts.ts';
import { GENERATED_PAGES, generatedPage, renderPage } from '../../scripts/doc-sections.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * The lists of docs/architecture.md and docs/social.md that `npm run docs:architecture` writes
 * from the code (schema files, route-table files, activities and their handlers, the modules of
 * federation/ that src/ imports, the modules holding SQL, the documents): a list that no longer
 * matches the code fails here.
 */
describe('the generated lists of the docs', () => {
  for (const page of GENERATED_PAGES) {
    it(`${page} is what \`npm run docs:architecture\` writes from the code now`, async () => {
      const actual = fs.readFileSync(path.join(root, page), 'utf8');
      expect(actual === (await generatedPage(page)), `${page} is stale: run it`).toBe(true);
    });
  }

  it('tells a stale list apart: a list with a line taken out is written whole again', async () => {
    const page = 'docs/architecture.md';
    const current = fs.readFileSync(path.join(root, page), 'utf8');
    const stale = current.replace(/^- `src\/db\/schema\/users\.ts`.*\n/m, '');
    expect(stale).not.toBe(current);
    expect(await renderPage(page, stale)).toBe(current);
  });

  it('finds the modules holding SQL, repositories and the others', () => {
    const found = sqlModules();
    expect(found).toContain('src/users/repository.ts');
    expect(found).toContain('federation/gateway.ts');
    expect(found).not.toContain('src/users/service.ts');
  });
});
