import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formFilesOf } from '../../contract/form-files.ts';
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

/** Every file a form of the table declares, with the most bytes it may hold (contract/form-files.ts). */
const declaredFiles = Object.entries(apiRoutes as Record<string, RouteDef>).flatMap(([key, def]) =>
  Object.entries(def.form ? formFilesOf(def.form) : {}).map(([file, { maxBytes }]) => ({
    key,
    file,
    maxBytes,
    required: photoRoutes.find((r) => r.key === key)!.required,
  })),
);

describe('the file limit a form declares', () => {
  it('is declared for every file field of the table', () => {
    expect(declaredFiles.map(({ key, file }) => `${key} ${file}`).sort()).toEqual(
      photoRoutes.map(({ key, file }) => `${key} ${file}`).sort(),
    );
  });

  /**
   * The form with the fields the route requires and a file of that many bytes (not an image),
   * then, when asked, a file where none is declared (a 400 for a reader that gets that far).
   * Encoded as on the wire: the server stops reading at a file over its limit, and a FormData
   * stream would go on writing into the closed body.
   */
  async function formWith(required: string[], file: string, bytes: number, thenMore = false) {
    const form = new FormData();
    for (const field of required) form.append(field, SAMPLE[field]!);
    form.append(file, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'big.jpg');
    if (thenMore) form.append('undeclared', new Blob(['x']), 'x.txt');
    const encoded = new Response(form);
    const type = encoded.headers.get('content-type')!;
    return { headers: { 'content-type': type }, body: new Uint8Array(await encoded.arrayBuffer()) };
  }

  it.each(declaredFiles)(
    '$key takes a file in $file of its declared size and refuses one byte more',
    async ({ key, file, maxBytes, required }) => {
      const send = async (bytes: number, thenMore = false) =>
        vault.request(pathOf(key, await targets()), {
          method: methodOf(key),
          ...(await formWith(required, file, bytes, thenMore)),
          cookie,
        });
      // Refused by the form's reader as the file streams, before the rest of the form is read
      // (the media module, which checks the size again, would answer the same).
      const over = await send(maxBytes + 1, true);
      expect(over.status).toBe(413);
      expect(await json(over)).toEqual({
        message: `The ${file} must be at most ${maxBytes / 1024 / 1024} MB`,
      });
      // At the limit the file reaches the media module, which finds it is no image.
      const at = await send(maxBytes);
      expect(at.status, await at.clone().text()).toBe(415);
      expect((await json(at)).message).toMatch(/must be a JPEG, PNG, WebP or AVIF image/);
    },
  );
});
