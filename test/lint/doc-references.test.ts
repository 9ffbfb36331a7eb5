import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, ROOT } from '../../scripts/code-facts.ts';

/** The headings of a Markdown page and the bold titles of its items (`- **Title.** …`). */
function sectionsOf(page: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const headings = [...text.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!);
  const titles = [...text.matchAll(/\*\*([^*]+?)\.?\*\*/g)].map((m) => m[1]!);
  return [...headings, ...titles];
}

/**
 * Each `docs/page.md, "Section"` (or `README.md ("Section")`) in the code and the docs: with the
 * comment marks and line breaks of a reference spread over lines taken out.
 */
export function referencesIn(file: string, text: string) {
  const flat = text.replace(/\n\s*(?:\*|\/\/)?\s*/g, ' ');
  return [...flat.matchAll(/\b((?:docs\/[\w-]+|README)\.md),? \(?"([^"]+)"/g)].map((m) => ({
    file,
    page: m[1]!,
    section: m[2]!,
  }));
}

const pages = ['README.md', ...filesUnder('docs', '.md')];
const sources = [
  ...pages,
  ...['src', 'federation', 'contract', 'web/src', 'test', 'scripts', 'bench'].flatMap((dir) =>
    filesUnder(dir, '').filter((f) => /\.(ts|tsx|js|css|md)$/.test(f)),
  ),
].filter((file) => file !== 'test/lint/doc-references.test.ts'); // its examples are made up

/** The references whose page has no such heading or item title (a heading may go on: "Limits (…)"). */
function broken(references: ReturnType<typeof referencesIn>) {
  const sections = new Map(pages.map((page) => [page, sectionsOf(page)]));
  return references.filter(({ page, section }) => {
    const known = sections.get(page);
    return !known || !known.some((s) => s === section || s.startsWith(`${section} `));
  });
}

describe('references to a section of a document', () => {
  it('name a section the document has', () => {
    const references = sources.flatMap((file) =>
      referencesIn(file, fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(references.length).toBeGreaterThan(20);
    expect(broken(references)).toEqual([]);
  });

  it('fail for a section the document does not have', () => {
    const text = '// see docs/architecture.md, "Layers", and docs/architecture.md,\n// "Entries".';
    expect(broken(referencesIn('example.ts', text)).map((r) => r.section)).toEqual(['Entries']);
  });
});

/** The repository paths a page names in backquotes (`src/…`, `web/src/…`), but patterns. */
function pathsNamedIn(text: string): string[] {
  const named = text.matchAll(
    /`((?:src|federation|web|contract|test|scripts|bench|migrations|docs)\/[\w./-]+)`/g,
  );
  return [...named].map((m) => m[1]!).filter((p) => !p.includes('*'));
}

describe('paths the documents name', () => {
  it('exist', () => {
    const missing = pages.flatMap((page) =>
      pathsNamedIn(fs.readFileSync(path.join(ROOT, page), 'utf8'))
        .filter((named) => !fs.existsSync(path.join(ROOT, named)))
        .map((named) => `${page}: ${named}`),
    );
    expect(missing).toEqual([]);
  });

  it('fail for a path that does not exist', () => {
    const text = 'The card (`web/src/activity/ActivityCard.tsx`, not `web/src/activity/Gone.tsx`).';
    const missing = pathsNamedIn(text).filter((named) => !fs.existsSync(path.join(ROOT, named)));
    expect(missing).toEqual(['web/src/activity/Gone.tsx']);
  });
});
