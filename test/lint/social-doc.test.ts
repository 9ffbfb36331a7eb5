import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMMENT_AUDIENCES,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  VISIBILITIES,
} from '../../contract/enums.ts';
import { outboxHandlers } from '../../scripts/code-facts.ts';
import { ACTIVITY_TYPES } from '../../src/db/schema/activities.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const social = () => fs.readFileSync(path.join(root, 'docs', 'social.md'), 'utf8');

/** The paragraph or list item of `doc` that starts with `start` (up to the next blank line). */
function passage(doc: string, start: string): string {
  const from = doc.indexOf(start);
  expect(from, `docs/social.md has no passage starting "${start}"`).toBeGreaterThan(-1);
  const to = doc.indexOf('\n\n', from);
  return doc.slice(from, to === -1 ? undefined : to);
}

/** The names of `names` that `text` does not mention as a word. */
const unnamed = (text: string, names: readonly string[]) =>
  names.filter((name) => !new RegExp(`\\b${name}\\b`).test(text));

/**
 * docs/social.md's lists of what the code holds: a new activity, local handler or notification
 * type fails here until the page names it. (The federating handlers are a list that
 * `npm run docs:architecture` writes, test/lint/generated-docs.test.ts.)
 */
describe('docs/social.md', () => {
  it('names every kind of activity where it says what each is for', () => {
    expect(unnamed(passage(social(), '- **Activities.**'), ACTIVITY_TYPES)).toEqual([]);
  });

  it('says of every kind of activity whether it is forgotten once delivered or stays', () => {
    const text = passage(social(), '  A handler that throws, or a `send` that rejects');
    expect(unnamed(text, ACTIVITY_TYPES)).toEqual([]);
  });

  it('names every activity that has a local handler where it says what the handler does', () => {
    const types = [...new Set(outboxHandlers().local.map((h) => h.type))];
    expect(types.length).toBeGreaterThan(0);
    expect(unnamed(passage(social(), '- **Local delivery handlers.**'), types)).toEqual([]);
  });

  it('names every notification type where it says what a notification is', () => {
    const text = passage(social(), '- A notification: `id`, `type`');
    expect(unnamed(text, NOTIFICATION_TYPES)).toEqual([]);
  });

  it('names every notification status where it says what a notification is', () => {
    const text = passage(social(), '- A notification: `id`, `type`');
    expect(unnamed(text, NOTIFICATION_STATUSES)).toEqual([]);
  });

  it("has a row for every visibility in the visibilities' table, and no other", () => {
    const table = passage(social(), '| Visibility ');
    const rows = [...table.matchAll(/^\| `(\w+)`/gm)].map((m) => m[1]);
    expect(rows).toEqual([...VISIBILITIES]);
  });

  it('says who reads a comment of every audience', () => {
    const text = passage(social(), '4. then by its `audience`:');
    expect(unnamed(text, COMMENT_AUDIENCES)).toEqual([]);
  });

  it('fails for a kind the page does not name', () => {
    const text = passage(social(), '- **Activities.**').replace(/\bAccept\b/g, 'Agree');
    expect(unnamed(text, ACTIVITY_TYPES)).toEqual(['Accept']);
  });
});
