import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Beverage } from '../../contract/beverages.ts';
import { tastingListSchema, tastingResponseSchema, type Tasting } from '../../contract/tastings.ts';
import { referencedUploads } from '../../src/media/sweep.ts';
import { HTML, jpeg, SVG } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// Tastings of an entry (GET/POST /api/beverages/{id}/tastings, PATCH/DELETE …/{tastingId}):
// JSON or a form with a photo; whoever may see the entry reads them, only its owner writes;
// photos are served by the one visibility policy and their files go with the tasting or entry.

const START = Date.UTC(2026, 4, 14, 20);
let clock = START;
let vault: TestVault;
type Person = { id: number; cookie: string };
let alice: Person;
let bob: Person;
let admin: Person;

beforeAll(async () => {
  vault = createTestVault({ now: () => clock });
  const person = async (username: string, role: 'USER' | 'ADMIN' = 'USER') => {
    const user = await vault.createUser({ username, role });
    return { id: user.id, cookie: await vault.login(username, user.password) };
  };
  alice = await person('alice');
  bob = await person('bob');
  admin = await person('root_admin', 'ADMIN');
});
afterAll(() => vault.close());

const send = (cookie: string, method: string, path: string, body?: unknown, headers = {}) =>
  body === undefined
    ? vault.request(`/api${path}`, { method, cookie, headers })
    : vault.request(`/api${path}`, {
        method,
        cookie,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });

function form(fields: Record<string, string>, photo?: Uint8Array, type = 'image/jpeg') {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (photo) body.append('photo', new Blob([new Uint8Array(photo)], { type }));
  return body;
}

const sendForm = (cookie: string, method: string, path: string, body: FormData) =>
  vault.request(`/api${path}`, { method, cookie, body });

async function refusal(res: Response) {
  return { status: res.status, message: (await json(res)).message as string };
}

const entry = (name: string, fields: Record<string, string> = {}): Promise<Beverage> =>
  vault.logEntry(alice.cookie, { name, type: 'WINE', ...fields });

async function taste(entryId: number, body: unknown): Promise<Tasting> {
  const res = await send(alice.cookie, 'POST', `/beverages/${entryId}/tastings`, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return tastingResponseSchema.parse(await res.json()).tasting;
}

async function tastePhoto(entryId: number, fields: Record<string, string> = {}) {
  const res = await sendForm(
    alice.cookie,
    'POST',
    `/beverages/${entryId}/tastings`,
    form(fields, await jpeg(320, 240)),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return tastingResponseSchema.parse(await res.json()).tasting;
}

async function tastingsOf(cookie: string, entryId: number): Promise<Tasting[]> {
  const res = await send(cookie, 'GET', `/beverages/${entryId}/tastings`);
  expect(res.status).toBe(200);
  return tastingListSchema.parse(await res.json()).tastings;
}

const fileOf = (photoPath: string) => vault.ctx.media.locate(photoPath);
const photo = (cookie: string | undefined, photoPath: string) =>
  vault.request(`/${photoPath}`, cookie ? { cookie } : {});

describe('logging a tasting', () => {
  it('takes JSON: the day is the server’s today (UTC) unless given; the rating may be left out', async () => {
    clock = START;
    const wine = await entry('Barolo');
    const today = await taste(wine.id, { notes: ' Tar and roses ' });
    expect(today).toMatchObject({
      beverageId: wine.id,
      tastedOn: '2026-05-14',
      rating: null,
      notes: 'Tar and roses',
      photoPath: null,
      vintage: null,
      opened: false,
    });
    const older = await taste(wine.id, { tastedOn: '2025-12-31', rating: 4 });
    const later = await taste(wine.id, { tastedOn: '2026-05-14', rating: 5 });
    // Newest first: by day, then as written.
    expect((await tastingsOf(alice.cookie, wine.id)).map((t) => t.id)).toEqual([
      later.id,
      today.id,
      older.id,
    ]);
    // The entry's own rating is left as it is.
    const res = await send(alice.cookie, 'GET', `/beverages/${wine.id}`);
    expect((await json(res)).beverage.rating).toBe(wine.rating);
  });

  it('takes form data with a photo, stored as a downscaled JPEG', async () => {
    const wine = await entry('Photographed');
    const tasting = await tastePhoto(wine.id, { rating: '3', tastedOn: '2026-01-02' });
    expect(tasting).toMatchObject({ rating: 3, tastedOn: '2026-01-02', notes: '' });
    expect(tasting.photoPath).toMatch(/^media\/[a-f0-9]{32}\.jpg$/);
    const res = await photo(alice.cookie, tasting.photoPath!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    // The uploads sweep knows the file is referenced.
    expect(await referencedUploads(vault.ctx)).toContain(tasting.photoPath);
  });

  it('refuses bad input with a 4xx and a message', async () => {
    const wine = await entry('Refused');
    const path = `/beverages/${wine.id}/tastings`;
    const cases: [unknown, string][] = [
      [{ tastedOn: '2026-02-30' }, 'Tasting date must be a date (YYYY-MM-DD)'],
      [{ tastedOn: 'yesterday' }, 'Tasting date must be a date (YYYY-MM-DD)'],
      [{ rating: 0 }, 'Rating must be a whole number from 1 to 5'],
      [{ rating: 6 }, 'Rating must be a whole number from 1 to 5'],
      [{ rating: 3.5 }, 'Rating must be a whole number from 1 to 5'],
      [{ notes: 'x'.repeat(5001) }, 'Notes must be at most 5000 characters long'],
    ];
    for (const [body, message] of cases) {
      expect(await refusal(await send(alice.cookie, 'POST', path, body))).toEqual({
        status: 400,
        message,
      });
    }
    expect((await send(alice.cookie, 'POST', path, { colour: 'red' })).status).toBe(400);
    const formCases: [FormData, number, string][] = [
      [form({ rating: '0' }), 400, 'Rating must be a whole number from 1 to 5'],
      [form({ rating: '6' }), 400, 'Rating must be a whole number from 1 to 5'],
      [form({ tastedOn: '2026-13-01' }), 400, 'Tasting date must be a date (YYYY-MM-DD)'],
      [form({}, SVG, 'image/svg+xml'), 415, 'The photo must be a JPEG, PNG, WebP or AVIF image'],
      [form({}, HTML, 'image/jpeg'), 415, 'The photo must be a JPEG, PNG, WebP or AVIF image'],
    ];
    for (const [body, status, message] of formCases) {
      expect(await refusal(await sendForm(alice.cookie, 'POST', path, body))).toEqual({
        status,
        message,
      });
    }
    const plain = await vault.request(`/api${path}`, {
      method: 'POST',
      cookie: alice.cookie,
      headers: { 'content-type': 'text/plain' },
      body: 'rating=4',
    });
    expect(plain.status).toBe(415);
    expect(
      await refusal(await send(alice.cookie, 'POST', '/beverages/999999/tastings', {})),
    ).toEqual({ status: 404, message: 'Beverage not found' });
    expect(await tastingsOf(alice.cookie, wine.id)).toEqual([]);
  });

  it('is idempotent: the same Idempotency-Key twice logs one tasting and answers the same', async () => {
    const wine = await entry('Twice');
    const path = `/beverages/${wine.id}/tastings`;
    const key = { 'idempotency-key': 'tasting-1' };
    const first = await send(alice.cookie, 'POST', path, { rating: 4 }, key);
    const second = await send(alice.cookie, 'POST', path, { rating: 4 }, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect(await tastingsOf(alice.cookie, wine.id)).toHaveLength(1);
    // The same key with another body is a conflict, and nothing is written.
    expect((await send(alice.cookie, 'POST', path, { rating: 2 }, key)).status).toBe(409);
    expect(await tastingsOf(alice.cookie, wine.id)).toHaveLength(1);
  });
});

describe('changing and deleting a tasting', () => {
  it('changes the fields given, by JSON or form; a new photo replaces the old file', async () => {
    const wine = await entry('Changed');
    const tasting = await tastePhoto(wine.id, { rating: '2', notes: 'Closed' });
    const path = `/beverages/${wine.id}/tastings/${tasting.id}`;
    let res = await send(alice.cookie, 'PATCH', path, { rating: null, notes: 'Opened up' });
    expect(res.status).toBe(200);
    expect(tastingResponseSchema.parse(await res.json()).tasting).toMatchObject({
      rating: null,
      notes: 'Opened up',
      tastedOn: tasting.tastedOn,
      photoPath: tasting.photoPath,
    });
    res = await sendForm(alice.cookie, 'PATCH', path, form({ rating: '5' }, await jpeg(100, 80)));
    const replaced = tastingResponseSchema.parse(await res.json()).tasting;
    expect(replaced).toMatchObject({ rating: 5, notes: 'Opened up' });
    expect(replaced.photoPath).not.toBe(tasting.photoPath);
    expect(fileOf(tasting.photoPath!)).toBeUndefined();
    expect(fileOf(replaced.photoPath!)).toBeDefined();
    res = await sendForm(alice.cookie, 'PATCH', path, form({ removePhoto: 'true' }));
    expect(tastingResponseSchema.parse(await res.json()).tasting.photoPath).toBeNull();
    expect(fileOf(replaced.photoPath!)).toBeUndefined();
    expect((await send(alice.cookie, 'PATCH', path, { rating: 0 })).status).toBe(400);
  });

  it('deletes a tasting and its photo file; a tasting of another entry is 404', async () => {
    const wine = await entry('Deleted');
    const other = await entry('Other');
    const tasting = await tastePhoto(wine.id);
    const wrong = await send(
      alice.cookie,
      'DELETE',
      `/beverages/${other.id}/tastings/${tasting.id}`,
    );
    expect(await refusal(wrong)).toEqual({ status: 404, message: 'Tasting not found' });
    const res = await send(alice.cookie, 'DELETE', `/beverages/${wine.id}/tastings/${tasting.id}`);
    expect(res.status).toBe(204);
    expect(await tastingsOf(alice.cookie, wine.id)).toEqual([]);
    expect(fileOf(tasting.photoPath!)).toBeUndefined();
  });

  it('deleting the entry deletes its tastings and their photo files', async () => {
    const wine = await entry('Gone');
    const tasting = await tastePhoto(wine.id);
    expect(fileOf(tasting.photoPath!)).toBeDefined();
    expect((await send(alice.cookie, 'DELETE', `/beverages/${wine.id}`)).status).toBe(204);
    expect(fileOf(tasting.photoPath!)).toBeUndefined();
    const left = await vault.ctx.database.database
      .prepare('SELECT count(*) FROM tastings WHERE beverage_id = ?')
      .pluck()
      .get(wine.id);
    expect(left).toBe(0);
  });
});

describe('who reads and who writes', () => {
  it('the entry says how many tastings it has, to whoever sees it, in one entry and in lists', async () => {
    const wine = await entry('Counted', { visibility: 'MEMBERS' });
    const countOf = async (cookie: string) => {
      const one = (await (await send(cookie, 'GET', `/beverages/${wine.id}`)).json()) as {
        beverage: Beverage;
      };
      const list = (await (
        await send(cookie, 'GET', `/beverages?userId=${alice.id}&limit=200`)
      ).json()) as { beverages: Beverage[] };
      const listed = list.beverages.find((b) => b.id === wine.id);
      return [one.beverage.tastingCount, listed?.tastingCount];
    };
    expect(await countOf(bob.cookie)).toEqual([0, 0]);
    const first = await taste(wine.id, { rating: 3 });
    await taste(wine.id, { notes: 'Again.' });
    expect(await countOf(bob.cookie)).toEqual([2, 2]);
    expect(await countOf(alice.cookie)).toEqual([2, 2]);
    expect(
      (await send(alice.cookie, 'DELETE', `/beverages/${wine.id}/tastings/${first.id}`)).status,
    ).toBe(204);
    expect(await countOf(bob.cookie)).toEqual([1, 1]);
  });

  it('whoever may see the entry reads its tastings and their photos; only its owner writes', async () => {
    const wine = await entry('Shown', { visibility: 'MEMBERS' });
    const tasting = await tastePhoto(wine.id, { rating: '4' });
    expect((await tastingsOf(bob.cookie, wine.id)).map((t) => t.id)).toEqual([tasting.id]);
    expect((await photo(bob.cookie, tasting.photoPath!)).status).toBe(200);
    expect((await photo(undefined, tasting.photoPath!)).status).toBe(401);
    const path = `/beverages/${wine.id}/tastings`;
    // Someone who sees the entry, and an admin, still cannot write its tastings.
    for (const cookie of [bob.cookie, admin.cookie]) {
      expect(await refusal(await send(cookie, 'POST', path, { rating: 1 }))).toEqual({
        status: 404,
        message: 'Beverage not found',
      });
      expect((await send(cookie, 'PATCH', `${path}/${tasting.id}`, { rating: 1 })).status).toBe(
        404,
      );
      expect((await send(cookie, 'DELETE', `${path}/${tasting.id}`)).status).toBe(404);
    }
    expect((await tastingsOf(alice.cookie, wine.id)).map((t) => t.rating)).toEqual([4]);
  });

  it('a stranger gets 404 for the tastings of a PRIVATE entry and for their photos', async () => {
    const wine = await entry('Hidden', { visibility: 'PRIVATE' });
    const tasting = await tastePhoto(wine.id);
    const list = await send(bob.cookie, 'GET', `/beverages/${wine.id}/tastings`);
    expect(await refusal(list)).toEqual({ status: 404, message: 'Beverage not found' });
    expect((await photo(bob.cookie, tasting.photoPath!)).status).toBe(404);
    // Its owner and an admin see it.
    expect((await photo(alice.cookie, tasting.photoPath!)).status).toBe(200);
    expect((await photo(admin.cookie, tasting.photoPath!)).status).toBe(200);
    expect(await tastingsOf(admin.cookie, wine.id)).toHaveLength(1);
    // Made visible to members, the same photo is served to them.
    const res = await sendForm(
      alice.cookie,
      'PATCH',
      `/beverages/${wine.id}`,
      form({ visibility: 'MEMBERS' }),
    );
    expect(res.status).toBe(200);
    expect((await photo(bob.cookie, tasting.photoPath!)).status).toBe(200);
  });
});

describe('files', () => {
  it("a write refused for someone else's entry stores no photo file", async () => {
    const wine = await entry('Raced');
    const before = fs.readdirSync(vault.config.uploadsDir).filter((n) => n.endsWith('.jpg'));
    const res = await sendForm(
      bob.cookie,
      'POST',
      `/beverages/${wine.id}/tastings`,
      form({}, await jpeg(64, 64)),
    );
    expect(res.status).toBe(404);
    const after = fs.readdirSync(vault.config.uploadsDir).filter((n) => n.endsWith('.jpg'));
    expect(after).toEqual(before);
  });
});
