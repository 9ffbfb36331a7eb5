import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiRoutes } from '../../contract/routes/index.ts';
import { FORM_BODY_LIMIT, type RouteDef } from '../../contract/routes/route.ts';
import { chunked } from '../helpers/bodies.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import type { UserRow } from '../../src/db/schema/index.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Body limits by construction: every route of the table whose form takes a file gets the limit
 * of what it takes, so a phone's photo of about 1.5 MB is accepted by each of them, and a body
 * over the limit is still a 413 with a message.
 */

/** The routes whose form has a file field, with that field's name: enumerated from the table. */
const photoRoutes = Object.entries(apiRoutes as Record<string, RouteDef>).flatMap(([key, def]) => {
  if (!def.form) return [];
  const schema = z.toJSONSchema(def.form, { io: 'input', unrepresentable: 'any' });
  const properties = (schema.properties ?? {}) as Record<string, { format?: string }>;
  const files = Object.keys(properties).filter((name) => properties[name]!.format === 'binary');
  const required = (schema.required ?? []) as string[];
  return files.map((file) => ({ key, file, required }));
});

/** Values for the text fields a form requires. */
const SAMPLE: Record<string, string> = { name: 'Phone photo', type: 'WINE' };

let vault: TestVault;
let tess: UserRow;
let cookie: string;
let photo: Buffer;

beforeAll(async () => {
  vault = createTestVault();
  const user = await vault.createUser({ username: 'tess' });
  tess = user;
  cookie = await vault.login('tess', user.password);
  photo = await jpeg(3300, 2300);
});
afterAll(() => vault.close());

/** A new entry with two bottles and a tasting: what any path parameter of a photo route names. */
async function targets(): Promise<Record<string, number>> {
  const { id } = await vault.ctx.beverages.create(tess, { name: 'Target', type: 'WINE' });
  const bottles = await vault.postJson(`/api/beverages/${id}/bottles`, { quantity: 2 }, cookie);
  expect(bottles.status, await bottles.clone().text()).toBe(201);
  const bottleId = (await json(bottles)).bottle.id as number;
  const tasting = await vault.postJson(`/api/beverages/${id}/tastings`, { rating: 4 }, cookie);
  expect(tasting.status, await tasting.clone().text()).toBe(201);
  return { id, bottleId, tastingId: (await json(tasting)).tasting.id as number };
}

function pathOf(key: string, params: Record<string, number>): string {
  const path = key.slice(key.indexOf(' ') + 1).replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`No value for {${name}} of ${key}`);
    return String(params[name]);
  });
  return `/api${path}`;
}

const methodOf = (key: string) => key.slice(0, key.indexOf(' '));

describe('photo routes and their body limit', () => {
  it('the table has photo routes: entries, tastings, opening a bottle and the avatar', () => {
    expect(photoRoutes.map((r) => r.key)).toEqual(
      expect.arrayContaining([
        'POST /beverages',
        'PATCH /beverages/{id}',
        'POST /beverages/{id}/tastings',
        'PATCH /beverages/{id}/tastings/{tastingId}',
        'POST /beverages/{id}/bottles/{bottleId}/open',
        'PATCH /users/me',
      ]),
    );
  });

  it.each(photoRoutes)(
    '$key takes a photo of about 1.5 MB in $file',
    async ({ key, file, required }) => {
      expect(photo.length).toBeGreaterThan(1.4 * 1024 * 1024);
      expect(photo.length).toBeLessThan(2 * 1024 * 1024);
      const form = new FormData();
      for (const field of required) {
        if (SAMPLE[field] === undefined)
          throw new Error(`No sample for the field ${field} of ${key}`);
        form.append(field, SAMPLE[field]);
      }
      form.append(file, new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'phone.jpg');
      const res = await vault.request(pathOf(key, await targets()), {
        method: methodOf(key),
        body: form,
        cookie,
      });
      const text = await res.text();
      expect(res.status, text).toBeLessThan(300);
      expect(text).toMatch(/"media\/[^"]+\.jpg"/);
    },
  );

  it.each(photoRoutes)(
    '$key refuses a body over its limit with 413 and a message',
    async ({ key }) => {
      const res = await vault.request(pathOf(key, await targets()), {
        method: methodOf(key),
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: chunked(FORM_BODY_LIMIT + 64 * 1024),
        duplex: 'half',
        cookie,
      } as RequestInit & { cookie: string });
      expect(res.status).toBe(413);
      expect(await json(res)).toEqual({ message: 'The request body is too large: at most 16 MB' });
    },
  );

  it('a JSON route whose path a photo route could match keeps the JSON limit', async () => {
    const res = await vault.request('/api/beverages/visibility', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: chunked(2 * 1024 * 1024),
      duplex: 'half',
      cookie,
    } as RequestInit & { cookie: string });
    expect(res.status).toBe(413);
    expect(await json(res)).toEqual({ message: 'The request body is too large: at most 1 MB' });
  });
});
