import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The entries a client gets are made in one place, src/beverages/entry-view.ts (ctx.entryViews):
// it reads the conversation counts of a batch and presents each entry for the viewer. No other
// code reads the counts for entries or presents an entry itself, so an answer with entries
// cannot miss a field or read the counts entry by entry.

const root = path.resolve(import.meta.dirname, '..', '..');
const VIEWS = 'src/beverages/entry-view.ts';

interface Rule {
  what: string;
  pattern: RegExp;
  /** The files (or folders, ending in '/') where it belongs. */
  allowed: readonly string[];
}

const RULES: readonly Rule[] = [
  {
    what: 'presents an entry itself',
    pattern: /\bpresent(Beverage|PageJson)\b/,
    allowed: ['src/beverages/present.ts', VIEWS],
  },
  {
    what: 'reads conversation counts of entries itself',
    pattern: /\.countsOf\s*\(/,
    allowed: ['src/conversation/', VIEWS],
  },
  {
    what: 'stitches conversation counts onto an entry',
    pattern: /\b(NO_CONVERSATION|ConversationCounts)\b/,
    allowed: ['src/beverages/', 'src/conversation/'],
  },
];

/** What a file does that belongs to the entry views, one line each ('file:line: what'). */
function stitching(file: string, source: string): string[] {
  const found: string[] = [];
  for (const rule of RULES) {
    if (
      rule.allowed.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place))
    ) {
      continue;
    }
    source.split('\n').forEach((line, i) => {
      if (rule.pattern.test(line)) found.push(`${file}:${i + 1}: ${rule.what}`);
    });
  }
  return found;
}

function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.posix.join(dir, name.split(path.sep).join('/')));
}

describe('the entry views', () => {
  it('are the only code that reads an entry’s conversation counts or presents it', () => {
    const files = [...sources('src'), ...sources('federation')];
    expect(files).toContain('src/routes/beverages.ts');
    const found = files.flatMap((file) =>
      stitching(file, fs.readFileSync(path.join(root, file), 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('catch a route that reads the counts and presents the entry itself', () => {
    const route = [
      "import { presentBeverage } from '../beverages/present.ts';",
      "on('POST /beverages/{id}/share', (c, { body }) => {",
      '  const entry = ctx.shares.share(viewer, id, body);',
      "  const counts = ctx.conversation.countsOf(viewer, 'local', [id]);",
      '  return { beverage: presentBeverage(entry, viewer.id, counts.get(id) ?? NO_CONVERSATION) };',
      '});',
    ].join('\n');
    expect(stitching('src/routes/shares.ts', route)).toEqual([
      'src/routes/shares.ts:1: presents an entry itself',
      'src/routes/shares.ts:5: presents an entry itself',
      'src/routes/shares.ts:4: reads conversation counts of entries itself',
      'src/routes/shares.ts:5: stitches conversation counts onto an entry',
    ]);
    expect(stitching(VIEWS, route)).toEqual([]);
  });
});
