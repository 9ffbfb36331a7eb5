import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../helpers/json.ts';
import { HTML, SVG, jpeg, png, pngBomb } from '../helpers/images.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let alice: string;
let bob: string;
let admin: string;
let bobId: number;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  const ad = await vault.createUser({ username: 'root_admin', role: 'ADMIN' });
  bobId = b.id;
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  admin = await vault.login('root_admin', ad.password);
});
afterAll(() => vault.close());

type Fields = Record<string, string | Blob>;

function form(fields: Fields): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

const blob = (bytes: Uint8Array, type = 'image/jpeg') =>
  new Blob([new Uint8Array(bytes)], { type });

function send(method: string, url: string, cookie: string, fields: Fields) {
  return vault.request(url, { method, body: form(fields), cookie });
}

async function create(cookie: string, fields: Fields) {
  const res = await send('POST', '/api/beverages', cookie, {
    type: 'WHISKEY',
    subtype: 'Bourbon',
    ...fields,
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await json(res)).beverage;
}

const list = async (cookie: string, query = '') =>
  (await json(await vault.request(`/api/beverages${query}`, { cookie }))).beverages as {
    name: string;
    id: number;
  }[];

const names = async (cookie: string, query = '') => (await list(cookie, query)).map((b) => b.name);

const uploads = () => fs.readdirSync(vault.config.uploadsDir).filter((f) => f.endsWith('.jpg'));
const count = async () =>
  (await vault.ctx.database.database
    .prepare('select count(*) n from beverages')
    .pluck<number>()
    .get())!;

describe('logging an entry', () => {
  it('returns the entry with every field of the spec', async () => {
    const res = await send('POST', '/api/beverages', alice, {
      name: '  Buffalo Trace  ',
      type: 'WHISKEY',
      subtype: 'Bourbon',
      rating: '4',
      status: 'TRIED',
      inCellar: 'true',
      makerName: 'Buffalo Trace Distillery',
      notes: 'Vanilla, caramel.',
    });
    expect(res.status).toBe(201);
    const { beverage } = await json(res);
    expect(beverage).toEqual({
      id: expect.any(Number),
      userId: expect.any(Number),
      type: 'WHISKEY',
      name: 'Buffalo Trace',
      subtype: 'Bourbon',
      makerName: 'Buffalo Trace Distillery',
      rating: 4,
      notes: 'Vanilla, caramel.',
      status: 'TRIED',
      inCellar: true,
      photoPath: null,
      visibility: 'MEMBERS',
      federated: true,
      bottleCount: 0,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      isOwner: true,
      ownerName: 'Alice Archer',
      sharedWithCurrentUser: false,
      sharedWith: [],
      cheerCount: 0,
      cheeredByMe: false,
      commentCount: 0,
      drinkFrom: null,
      drinkUntil: null,
      tastingCount: 0,
    });
  });

  it('applies the defaults: tried, rating 3, not in the cellar, empty maker and notes', async () => {
    const entry = await create(alice, { name: 'Defaults', type: 'BEER', subtype: 'Stout' });
    expect(entry).toMatchObject({
      status: 'TRIED',
      rating: 3,
      inCellar: false,
      makerName: '',
      notes: '',
    });
  });

  it('forces rating 0 for a to-try entry', async () => {
    const entry = await create(alice, { name: 'Someday', status: 'TO_TRY', rating: '5' });
    expect(entry.rating).toBe(0);
  });

  it('accepts every wine subtype of the spec, grouped or not', async () => {
    const entry = await create(alice, {
      name: 'Riesling test',
      type: 'WINE',
      subtype: 'Grüner Veltliner',
    });
    expect(entry.subtype).toBe('Grüner Veltliner');
  });

  it.each([
    ['a missing name', { name: undefined }, 'Name is required'],
    ['a blank name', { name: '   ' }, 'Name is required'],
    ['an unknown type', { type: 'VODKA' }, 'Type must be WHISKEY, WINE or BEER'],
    [
      'a subtype of another type',
      { type: 'BEER', subtype: 'Bourbon' },
      'Bourbon is not a kind of beer',
    ],
    ['rating 9', { rating: '9' }, 'Rating must be a whole number from 0 to 5'],
    ['rating 3.5', { rating: '3.5' }, 'Rating must be a whole number from 0 to 5'],
    ['rating -1', { rating: '-1' }, 'Rating must be a whole number from 0 to 5'],
    ['inCellar yes', { inCellar: 'yes' }, 'inCellar must be true or false'],
    ['an unknown status', { status: 'DRUNK' }, 'Status must be TRIED or TO_TRY'],
    ['a 201-character name', { name: 'x'.repeat(201) }, 'Name must be at most 200 characters long'],
    [
      '5001 characters of notes',
      { notes: 'n'.repeat(5001) },
      'Notes must be at most 5000 characters long',
    ],
  ])('refuses %s with 400 and stores nothing', async (_, overrides, message) => {
    const before = await count();
    const fields: Fields = { name: 'Valid', type: 'WHISKEY', subtype: 'Rye' };
    for (const [k, v] of Object.entries(overrides)) {
      if (v === undefined) delete fields[k];
      else fields[k] = v;
    }
    const res = await send('POST', '/api/beverages', alice, fields);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message });
    expect(await count()).toBe(before);
  });

  it('refuses a JSON body with 415', async () => {
    const res = await vault.postJson('/api/beverages', { name: 'x', type: 'WHISKEY' }, alice);
    expect(res.status).toBe(415);
  });

  it('refuses anonymous callers with 401', async () => {
    const res = await vault.request('/api/beverages', {
      method: 'POST',
      body: form({ name: 'x', type: 'BEER' }),
    });
    expect(res.status).toBe(401);
    expect((await vault.request('/api/beverages')).status).toBe(401);
  });
});

describe('listing and searching', () => {
  let searcher: string;
  beforeAll(async () => {
    const s = await vault.createUser({ username: 'searcher', fullName: 'Sam Searcher' });
    searcher = await vault.login('searcher', s.password);
    await create(searcher, {
      name: 'Lagavulin 16',
      subtype: 'Scotch',
      makerName: 'Lagavulin',
      notes: 'Peat smoke and iodine',
      inCellar: 'true',
    });
    await create(searcher, {
      name: 'Château Margaux',
      type: 'WINE',
      subtype: 'Merlot',
      notes: 'Cassis',
    });
    await create(searcher, {
      name: 'Pliny the Elder',
      type: 'BEER',
      subtype: 'IPA',
      makerName: 'Russian River',
      status: 'TO_TRY',
      inCellar: 'true',
    });
    await create(searcher, { name: 'Old Fitz', subtype: 'Bourbon', notes: 'A 10% wheat_ed mash' });
  });

  it("lists only the caller's own entries, newest first", async () => {
    expect(await names(searcher)).toEqual([
      'Old Fitz',
      'Pliny the Elder',
      'Château Margaux',
      'Lagavulin 16',
    ]);
  });

  it('filters by type, status and cellar', async () => {
    expect(await names(searcher, '?type=WHISKEY')).toEqual(['Old Fitz', 'Lagavulin 16']);
    expect(await names(searcher, '?type=BEER&status=TO_TRY')).toEqual(['Pliny the Elder']);
    expect(await names(searcher, '?status=TRIED&type=BEER')).toEqual([]);
    expect(await names(searcher, '?cellar=true')).toEqual(['Pliny the Elder', 'Lagavulin 16']);
  });

  it.each([
    ['a name, in any case', 'LAGAVULIN', ['Lagavulin 16']],
    ['part of a word', 'vuli', ['Lagavulin 16']],
    ['a subtype', 'merlot', ['Château Margaux']],
    ['a maker', 'russian', ['Pliny the Elder']],
    ['the notes', 'iodine', ['Lagavulin 16']],
    ['text without its accents', 'chateau', ['Château Margaux']],
    ['two words anywhere in the entry', 'smoke lagavulin', ['Lagavulin 16']],
    ['a two-letter term', 'ip', ['Pliny the Elder']],
    ['LIKE wildcards taken literally', '10%', ['Old Fitz']],
    ['an underscore taken literally', 't_e', ['Old Fitz']],
    ['quotes', '"peat', []],
    ['nothing that matches', 'zinfandel', []],
  ])('finds entries by %s', async (_, q, expected) => {
    expect(await names(searcher, `?q=${encodeURIComponent(q)}`)).toEqual(expected);
  });

  it('combines search with the type filter and trims the search text', async () => {
    expect(await names(searcher, `?q=${encodeURIComponent('  e  ')}&type=BEER`)).toEqual([
      'Pliny the Elder',
    ]);
  });

  it('pages with limit and an opaque cursor, without gaps or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await json(await vault.request(`/api/beverages${query}`, { cookie: searcher }));
      expect(page.beverages.length).toBeLessThanOrEqual(3);
      seen.push(...page.beverages.map((b: { name: string }) => b.name));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['Old Fitz', 'Pliny the Elder', 'Château Margaux', 'Lagavulin 16']);
  });

  it('says there is no next page on the last page', async () => {
    const page = await json(await vault.request('/api/beverages?limit=50', { cookie: searcher }));
    expect(page.nextCursor).toBeNull();
  });

  it("lists another user's entries read-only with userId", async () => {
    const entries = await list(
      alice,
      `?userId=${(await vault.ctx.users.findByUsername('searcher'))!.id}`,
    );
    expect(entries.length).toBe(4);
    expect(entries.every((e) => (e as unknown as { isOwner: boolean }).isOwner === false)).toBe(
      true,
    );
    expect((entries[0] as unknown as { ownerName: string }).ownerName).toBe('Sam Searcher');
  });

  it.each([
    ['?type=VODKA', 400, 'Type must be WHISKEY, WINE or BEER'],
    ['?status=DONE', 400, 'Status must be TRIED or TO_TRY'],
    ['?cellar=maybe', 400, 'cellar must be true or false'],
    ['?userId=abc', 400, 'userId must be a positive integer'],
    ['?userId=99999', 404, 'User not found'],
    ['?limit=0', 400, 'limit must be a whole number from 1 to 200'],
    ['?limit=201', 400, 'limit must be a whole number from 1 to 200'],
    ['?cursor=bm9wZQ', 400, 'The cursor is not valid'],
  ])('refuses the query %s', async (query, status, message) => {
    const res = await vault.request(`/api/beverages${query}`, { cookie: searcher });
    expect(res.status).toBe(status);
    expect(await json(res)).toEqual({ message });
  });
});

describe('editing', () => {
  it('changes fields and keeps the rest', async () => {
    const entry = await create(alice, { name: 'Editable', notes: 'first', makerName: 'Maker' });
    const res = await send('PATCH', `/api/beverages/${entry.id}`, alice, {
      name: ' Edited ',
      rating: '5',
    });
    expect(res.status).toBe(200);
    expect((await json(res)).beverage).toMatchObject({
      name: 'Edited',
      rating: 5,
      notes: 'first',
      makerName: 'Maker',
    });
  });

  it('moves to to-try with rating 0 and back to tried with rating 3 on status-only updates', async () => {
    const entry = await create(alice, { name: 'Flip flop', rating: '5' });
    const toTry = await json(
      await send('PATCH', `/api/beverages/${entry.id}`, alice, { status: 'TO_TRY' }),
    );
    expect(toTry.beverage).toMatchObject({ status: 'TO_TRY', rating: 0 });
    const tried = await json(
      await send('PATCH', `/api/beverages/${entry.id}`, alice, { status: 'TRIED' }),
    );
    expect(tried.beverage).toMatchObject({ status: 'TRIED', rating: 3 });
  });

  it('resets the subtype when only the type changes', async () => {
    const entry = await create(alice, { name: 'Retyped' });
    const res = await json(
      await send('PATCH', `/api/beverages/${entry.id}`, alice, { type: 'WINE' }),
    );
    expect(res.beverage).toMatchObject({ type: 'WINE', subtype: 'Cabernet Sauvignon' });
  });

  it('refuses a subtype that does not belong to the type and changes nothing', async () => {
    const entry = await create(alice, { name: 'Steady', type: 'BEER', subtype: 'Lager' });
    const res = await send('PATCH', `/api/beverages/${entry.id}`, alice, {
      subtype: 'Merlot',
      name: 'Changed',
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'Merlot is not a kind of beer' });
    expect(await vault.ctx.beverages.get(entry.id)).toMatchObject({
      name: 'Steady',
      subtype: 'Lager',
    });
  });

  it("refuses another user's entry with 403 and changes nothing", async () => {
    const entry = await create(alice, { name: 'Mine' });
    const res = await send('PATCH', `/api/beverages/${entry.id}`, bob, { name: 'Stolen' });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({
      message: 'Only the owner or an admin can change this entry',
    });
    expect((await vault.ctx.beverages.get(entry.id)).name).toBe('Mine');
  });

  it("lets an admin edit anyone's entry", async () => {
    const entry = await create(bob, { name: "Bob's" });
    const res = await send('PATCH', `/api/beverages/${entry.id}`, admin, { notes: 'Moderated' });
    expect(res.status).toBe(200);
    const { beverage } = await json(res);
    expect(beverage).toMatchObject({ notes: 'Moderated', isOwner: false, userId: bobId });
  });

  it('answers 404 for an unknown entry and 400 for a bad id', async () => {
    expect((await send('PATCH', '/api/beverages/999999', alice, { name: 'x' })).status).toBe(404);
    expect((await send('PATCH', '/api/beverages/x1', alice, { name: 'x' })).status).toBe(400);
  });
});

describe('deleting', () => {
  it("deletes the owner's entry", async () => {
    const entry = await create(alice, { name: 'Gone soon' });
    const res = await vault.request(`/api/beverages/${entry.id}`, {
      method: 'DELETE',
      cookie: alice,
    });
    expect(res.status).toBe(204);
    expect(
      (await vault.request(`/api/beverages/${entry.id}`, { method: 'DELETE', cookie: alice }))
        .status,
    ).toBe(404);
  });

  it('refuses another user and allows an admin', async () => {
    const entry = await create(alice, { name: 'Guarded' });
    const refused = await vault.request(`/api/beverages/${entry.id}`, {
      method: 'DELETE',
      cookie: bob,
    });
    expect(refused.status).toBe(403);
    expect((await vault.ctx.beverages.get(entry.id)).name).toBe('Guarded');
    const allowed = await vault.request(`/api/beverages/${entry.id}`, {
      method: 'DELETE',
      cookie: admin,
    });
    expect(allowed.status).toBe(204);
  });

  it('removes the entry from search results', async () => {
    const entry = await create(alice, { name: 'Ephemeral Quux' });
    expect(await names(alice, '?q=quux')).toEqual(['Ephemeral Quux']);
    await vault.request(`/api/beverages/${entry.id}`, { method: 'DELETE', cookie: alice });
    expect(await names(alice, '?q=quux')).toEqual([]);
  });
});

describe('cloning', () => {
  it("makes the caller's own editable copy, to-try by default", async () => {
    const source = await create(alice, { name: 'Share me', rating: '5', notes: 'Great' });
    const res = await vault.request(`/api/beverages/${source.id}/clone`, {
      method: 'POST',
      cookie: bob,
    });
    expect(res.status).toBe(201);
    const { beverage } = await json(res);
    expect(beverage).toMatchObject({
      name: 'Share me',
      status: 'TO_TRY',
      rating: 0,
      isOwner: true,
      userId: bobId,
      inCellar: false,
    });
    expect(beverage.id).not.toBe(source.id);
  });

  it('clones into the tried list when asked', async () => {
    const source = await create(alice, { name: 'Tried clone', rating: '4' });
    const res = await vault.postJson(`/api/beverages/${source.id}/clone`, { status: 'TRIED' }, bob);
    expect((await json(res)).beverage).toMatchObject({ status: 'TRIED', rating: 4 });
  });

  it('refuses a bad status and an unknown entry', async () => {
    const source = await create(alice, { name: 'Clone refusals' });
    expect(
      (await vault.postJson(`/api/beverages/${source.id}/clone`, { status: 'NOPE' }, bob)).status,
    ).toBe(400);
    expect((await vault.postJson('/api/beverages/999999/clone', {}, bob)).status).toBe(404);
  });
});

describe('photos', () => {
  it('re-encodes a JPEG and serves it to signed-in users only', async () => {
    const entry = await create(alice, { name: 'Pictured', photo: blob(await jpeg(800, 600)) });
    expect(entry.photoPath).toMatch(/^media\/[a-f0-9]{32}\.jpg$/);
    const res = await vault.request(`/${entry.photoPath}`, { cookie: bob });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    expect((await vault.request(`/${entry.photoPath}`)).status).toBe(401);
  });

  it('strips GPS and every other EXIF field', async () => {
    const original = await jpeg(400, 300, { gps: true });
    expect((await sharp(original).metadata()).exif?.toString('latin1')).toContain('SpyCam');
    const entry = await create(alice, { name: 'Secret location', photo: blob(original) });
    const stored = fs.readFileSync(
      path.join(vault.config.uploadsDir, entry.photoPath.slice('media/'.length)),
    );
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(stored.toString('latin1')).not.toContain('SpyCam');
  });

  it('applies the EXIF orientation and caps the longest side at 2048', async () => {
    const rotated = await create(alice, {
      name: 'Rotated',
      photo: blob(await jpeg(300, 200, { orientation: 6 })),
    });
    const big = await create(alice, { name: 'Big', photo: blob(await jpeg(4000, 1000)) });
    const file = (p: string) => path.join(vault.config.uploadsDir, p.slice('media/'.length));
    expect(await sharp(file(rotated.photoPath)).metadata()).toMatchObject({
      width: 200,
      height: 300,
    });
    expect(await sharp(file(big.photoPath)).metadata()).toMatchObject({ width: 2048, height: 512 });
  });

  it('accepts PNG with transparency, flattened onto white', async () => {
    const entry = await create(alice, { name: 'Label', photo: blob(await png(), 'image/png') });
    expect(entry.photoPath).toMatch(/\.jpg$/);
  });

  it.each([
    [
      'text named .jpg',
      () => Buffer.from('definitely not an image'),
      415,
      'The photo must be a JPEG, PNG, WebP or AVIF image',
    ],
    ['an SVG', () => SVG, 415, 'The photo must be a JPEG, PNG, WebP or AVIF image'],
    ['an HTML page', () => HTML, 415, 'The photo must be a JPEG, PNG, WebP or AVIF image'],
    ['an image bomb', () => pngBomb(), 400, 'The photo is too large: at most 50 megapixels'],
    [
      'a truncated JPEG',
      async () => (await jpeg(200, 200)).subarray(0, 600),
      400,
      'The photo could not be read: is it a complete image?',
    ],
  ])('refuses %s and stores nothing', async (_, make, status, message) => {
    const before = { rows: await count(), files: uploads().length };
    const res = await send('POST', '/api/beverages', alice, {
      name: 'Bad photo',
      type: 'WHISKEY',
      subtype: 'Rye',
      photo: new File([new Uint8Array(await make())], 'bottle.jpg', { type: 'image/jpeg' }),
    });
    expect(res.status).toBe(status);
    expect(await json(res)).toEqual({ message });
    expect({ rows: await count(), files: uploads().length }).toEqual(before);
  });

  it('refuses a photo field that is text', async () => {
    const res = await send('POST', '/api/beverages', alice, {
      name: 'x',
      type: 'BEER',
      photo: 'not-a-file',
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'photo must be a file' });
  });

  it('deletes the old file when a photo is replaced or removed', async () => {
    const entry = await create(alice, { name: 'Replace me', photo: blob(await jpeg(100, 100)) });
    const first = entry.photoPath;
    const replaced = (
      await json(
        await send('PATCH', `/api/beverages/${entry.id}`, alice, {
          photo: blob(await jpeg(120, 90)),
        }),
      )
    ).beverage;
    expect(replaced.photoPath).not.toBe(first);
    expect(uploads()).not.toContain(first.slice('media/'.length));
    const removed = (
      await json(await send('PATCH', `/api/beverages/${entry.id}`, alice, { removePhoto: 'true' }))
    ).beverage;
    expect(removed.photoPath).toBeNull();
    expect(uploads()).not.toContain(replaced.photoPath.slice('media/'.length));
  });

  it('keeps the old photo when a replacement is refused', async () => {
    const entry = await create(alice, { name: 'Keep photo', photo: blob(await jpeg(100, 100)) });
    const res = await send('PATCH', `/api/beverages/${entry.id}`, alice, {
      photo: blob(SVG, 'image/svg+xml'),
    });
    expect(res.status).toBe(415);
    expect((await vault.ctx.beverages.get(entry.id)).photoPath).toBe(entry.photoPath);
    expect(uploads()).toContain(entry.photoPath.slice('media/'.length));
  });

  it('deletes the photo with the entry, and a clone has its own copy', async () => {
    const entry = await create(alice, { name: 'Photo clone', photo: blob(await jpeg(100, 100)) });
    const clone = (
      await json(
        await vault.request(`/api/beverages/${entry.id}/clone`, { method: 'POST', cookie: bob }),
      )
    ).beverage;
    expect(clone.photoPath).not.toBe(entry.photoPath);
    await vault.request(`/api/beverages/${entry.id}`, { method: 'DELETE', cookie: alice });
    expect(uploads()).not.toContain(entry.photoPath.slice('media/'.length));
    expect(uploads()).toContain(clone.photoPath.slice('media/'.length));
  });

  it('answers 404 for an unknown or malformed media name', async () => {
    expect(
      (await vault.request('/media/0123456789abcdef0123456789abcdef.jpg', { cookie: alice }))
        .status,
    ).toBe(404);
    expect((await vault.request('/media/..%2Fvault.sqlite', { cookie: alice })).status).toBe(404);
  });
});
