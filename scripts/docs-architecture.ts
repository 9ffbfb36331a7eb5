// `npm run docs:architecture`: writes the lists of docs/architecture.md and docs/social.md that
// are generated from the code (scripts/doc-sections.ts), leaving the prose around them as it is.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './code-facts.ts';
import { GENERATED_PAGES, generatedPage } from './doc-sections.ts';

for (const page of GENERATED_PAGES) {
  const text = await generatedPage(page);
  const file = path.join(ROOT, page);
  if (fs.readFileSync(file, 'utf8') === text) continue;
  fs.writeFileSync(file, text);
  console.log(`Wrote ${page}`);
}
