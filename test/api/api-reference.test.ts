import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_REFERENCE, apiReference } from '../../scripts/api-reference.ts';

/**
 * docs/api.md, the reference for people, is written from the route table by `npm run docs:api`:
 * it fails here when a route changed and the page was not written again.
 */
describe('docs/api.md', () => {
  it('is what `npm run docs:api` writes from the route table now', async () => {
    const expected = await apiReference();
    const actual = fs.existsSync(API_REFERENCE) ? fs.readFileSync(API_REFERENCE, 'utf8') : '';
    expect(actual === expected, 'docs/api.md is out of date: run `npm run docs:api`').toBe(true);
  });

  it('lists each route under its tag with who may call it, its body, answer and errors', async () => {
    const page = await apiReference();
    const comments = page.indexOf('\n## Cheers and comments\n');
    const post = page.indexOf('\n### POST /api/beverages/{id}/comments\n');
    expect(comments).toBeGreaterThan(-1);
    expect(post).toBeGreaterThan(comments);
    const section = page.slice(post, page.indexOf('\n### ', post + 1));
    expect(section).toContain(
      '**Who may call:** A signed-in user, by session or by an access token with the `write` scope',
    );
    expect(section).toMatch(/\*\*Body\*\* \(`application\/json`\)/);
    expect(section).toMatch(/\| `content` +\| string, 1–1000 characters \| yes +\|/);
    expect(section).toContain('**Answer:** `201` (`application/json`)');
    expect(section).toMatch(/\| `comment.author.handle` +\| string or null +\| yes +\|/);
    expect(section).toContain('**Errors:** `400`, `401`, `403`, `404`, `415`, `429`');
  });
});
