import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { route } from '../../contract/routes/route.ts';
import { API_REFERENCE, apiReference } from '../../scripts/api-reference.ts';
import { buildOpenApiDocument } from '../../src/openapi/document.ts';
import { renderReference } from '../../src/openapi/reference.ts';

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

  it("lists a query's parameters, a form's fields, a file answer and each variant of a union", async () => {
    const item = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('local'), user: z.object({ name: z.string() }) }),
      z.object({ kind: z.literal('remote'), handle: z.string().describe('@name@host') }),
    ]);
    const doc = await buildOpenApiDocument({
      routes: {
        'GET /items': route({
          summary: 'Items',
          tag: 'Items',
          access: 'read',
          query: z.object({ limit: z.coerce.number().int().min(1).max(200).optional() }),
          answer: z.object({ items: z.array(item) }),
        }),
        'POST /items': route({
          summary: 'Add an item',
          tag: 'Items',
          access: 'write',
          form: z.object({ photo: z.instanceof(File) }),
          status: 201,
        }),
        'GET /items/export': route({
          summary: 'All items',
          tag: 'Items',
          access: 'read',
          file: 'text/csv',
        }),
      },
    });
    const page = renderReference(doc);
    expect(page).toContain('| `limit` | query | integer, 1–200 | no |');
    expect(page).toContain('**Body** (`multipart/form-data`)');
    expect(page).toContain('| `photo` | file | yes |');
    expect(page).toContain('| `items[].user.name` | string | yes | When `kind` is "local". |');
    expect(page).toContain(
      '| `items[].handle` | string | yes | When `kind` is "remote": @name@host |',
    );
    expect(page).toContain('**Answer:** `200`, a `text/csv` file.');
    expect(page).toContain('**Answer:** `201`, no content.');
  });
});
