import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beveragePageSchema, beverageSchema, type Beverage } from '../../contract/beverages.ts';
import { bottleListSchema, bottleResponseSchema, type Bottle } from '../../contract/cellar.ts';
import { openBottleResponseSchema } from '../../contract/tastings.ts';
import { insertBottle } from '../helpers/cellar-rows.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The bottles of an entry (GET/POST /api/beverages/{id}/bottles, PATCH/DELETE …/{bottleId}) and
// opening one (POST …/{bottleId}/open): the owner's alone; adding puts the entry in the cellar,
// opening the last may take it out; each change is a bottle event; the owner's bottleCount.

const START = Date.UTC(2026, 4, 14, 20);
let clock = START;
let vault: TestVault;
let alice: { id: number; cookie: string };
let bob: { id: number; cookie: string };

beforeAll(async () => {
  vault = createTestVault({ now: () => clock });
  const person = async (username: string) => {
    const user = await vault.createUser({ username });
    return { id: user.id, cookie: await vault.login(username, user.password) };
  };
  alice = await person('alice');
  bob = await person('bob');
  // Nothing is delivered: a delivered Update is dropped (a transient activity), and these tests
  // read the activities recorded (activitiesOf), which must not depend on how soon it goes.
  await vault.ctx.outbox.stop();
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

async function refusal(res: Response) {
  return { status: res.status, message: (await json(res)).message as string };
}

async function entry(name: string, fields: Record<string, string> = {}): Promise<Beverage> {
  return vault.logEntry(alice.cookie, { name, type: 'WINE', ...fields });
}

async function add(entryId: number, body: unknown): Promise<Bottle> {
  const res = await send(alice.cookie, 'POST', `/beverages/${entryId}/bottles`, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return bottleResponseSchema.parse(await res.json()).bottle;
}

async function bottlesOf(entryId: number): Promise<Bottle[]> {
  const res = await send(alice.cookie, 'GET', `/beverages/${entryId}/bottles`);
  expect(res.status).toBe(200);
  return bottleListSchema.parse(await res.json()).bottles;
}

async function seen(cookie: string, entryId: number): Promise<Beverage> {
  const res = await send(cookie, 'GET', `/beverages/${entryId}`);
  expect(res.status).toBe(200);
  return beverageSchema.parse((await json(res)).beverage);
}

/** The entry as a list shows it to `cookie` (the cached JSON of list pages). */
async function listed(cookie: string, entryId: number, query = ''): Promise<Beverage | undefined> {
  const res = await send(cookie, 'GET', `/beverages?userId=${alice.id}&limit=200${query}`);
  expect(res.status).toBe(200);
  return beveragePageSchema.parse(await res.json()).beverages.find((b) => b.id === entryId);
}

function eventsOf(entryId: number) {
  return vault.ctx.database.database
    .prepare('SELECT kind, change FROM bottle_events WHERE beverage_id = ? ORDER BY id')
    .all(entryId);
}

/** The entry's activities, as its followers (and the fediverse) learn of its changes. */
function activitiesOf(entryId: number): Promise<string[]> {
  return vault.ctx.database.database
    .prepare('SELECT type FROM activities WHERE beverage_id = ? ORDER BY id')
    .pluck<string>()
    .all(entryId);
}

async function place(name: string, parentId?: number): Promise<number> {
  const res = await send(alice.cookie, 'POST', '/cellar/places', { name, parentId });
  expect(res.status).toBe(201);
  return (await json(res)).place.id as number;
}

describe('adding bottles', () => {
  it('adds a line (1 × 750 ml unless said), puts the entry in the cellar, records ADDED, and the owner sees the count', async () => {
    const musar = await entry('Musar');
    expect(musar.inCellar).toBe(false);
    expect(musar.bottleCount).toBe(0);
    // Cached before the change: the lists must show the new count, not the cached one.
    expect((await listed(alice.cookie, musar.id))?.bottleCount).toBe(0);
    const rack = await place('Rack');
    const one = await add(musar.id, {});
    expect(one).toMatchObject({
      beverageId: musar.id,
      quantity: 1,
      sizeMl: 750,
      vintage: null,
      placeId: null,
      placePath: [],
      purchasedOn: null,
      price: null,
      currency: null,
      note: '',
      createdAt: new Date(START).toISOString(),
    });
    // In the cellar now: the next line changes only the count, which the lists must show.
    expect((await listed(alice.cookie, musar.id))?.bottleCount).toBe(1);
    const six = await add(musar.id, {
      quantity: 6,
      sizeMl: 1500,
      vintage: 2015,
      placeId: rack,
      purchasedOn: '2024-02-29',
      price: 25.5,
      currency: 'eur',
      note: ' From the fair ',
    });
    expect(six).toMatchObject({
      quantity: 6,
      sizeMl: 1500,
      vintage: 2015,
      placeId: rack,
      placePath: ['Rack'],
      purchasedOn: '2024-02-29',
      price: 25.5,
      currency: 'EUR',
      note: 'From the fair',
    });
    expect((await bottlesOf(musar.id)).map((b) => b.id)).toEqual([one.id, six.id]);
    const now = await seen(alice.cookie, musar.id);
    expect(now).toMatchObject({ inCellar: true, bottleCount: 7 });
    expect((await listed(alice.cookie, musar.id))?.bottleCount).toBe(7);
    expect((await listed(alice.cookie, musar.id, '&cellar=true'))?.bottleCount).toBe(7);
    expect(await eventsOf(musar.id)).toEqual([
      { kind: 'ADDED', change: 1 },
      { kind: 'ADDED', change: 6 },
    ]);
    // Going into the cellar is an edit of the entry (its Note says so); the count is not.
    expect(await activitiesOf(musar.id)).toEqual(['Create', 'Update']);
  });

  it('refuses a bad body with a 400 and adds nothing', async () => {
    const wine = await entry('Refused');
    const refusals = [];
    for (const body of [
      { quantity: 0 },
      { quantity: 1.5 },
      { quantity: 10000 },
      { sizeMl: 0 },
      { vintage: 1700 },
      { price: 12 },
      { price: -1, currency: 'EUR' },
      { price: 10, currency: 'euro' },
      { purchasedOn: '2024-02-30' },
      { note: 'x'.repeat(501) },
      { placeId: 'rack' },
      { colour: 'red' },
    ]) {
      refusals.push(
        await refusal(await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles`, body)),
      );
    }
    expect(refusals).toEqual([
      { status: 400, message: 'Quantity must be a whole number from 1 to 9999' },
      { status: 400, message: 'Quantity must be a whole number from 1 to 9999' },
      { status: 400, message: 'Quantity must be a whole number from 1 to 9999' },
      { status: 400, message: 'Size must be a whole number of ml from 1 to 30000' },
      { status: 400, message: 'Vintage must be a year from 1800 to 2200' },
      { status: 400, message: 'Give the currency of the price' },
      { status: 400, message: 'Price must be a number from 0 to 1000000' },
      { status: 400, message: 'Currency must be a three-letter code such as EUR' },
      { status: 400, message: 'Purchase date must be a date (YYYY-MM-DD)' },
      { status: 400, message: 'Note must be at most 500 characters long' },
      { status: 400, message: 'placeId must be an id' },
      { status: 400, message: 'Unknown field: colour' },
    ]);
    const notJson = await vault.request(`/api/beverages/${wine.id}/bottles`, {
      method: 'POST',
      cookie: alice.cookie,
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(await bottlesOf(wine.id)).toEqual([]);
    expect((await seen(alice.cookie, wine.id)).inCellar).toBe(false);
  });

  it("refuses a place of another user's (404) and an entry that is not there (404)", async () => {
    const wine = await entry('Placed');
    const res = await send(bob.cookie, 'POST', '/cellar/places', { name: 'Bob rack' });
    const bobsPlace = (await json(res)).place.id as number;
    expect(
      await refusal(
        await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles`, { placeId: bobsPlace }),
      ),
    ).toEqual({ status: 404, message: 'Place not found' });
    expect(
      await refusal(await send(alice.cookie, 'POST', '/beverages/999999/bottles', {})),
    ).toEqual({ status: 404, message: 'Beverage not found' });
    expect(await eventsOf(wine.id)).toEqual([]);
  });

  it('is idempotent: the same Idempotency-Key twice makes one line and answers the same', async () => {
    const wine = await entry('Twice');
    const key = { 'idempotency-key': 'bottle-add-1' };
    const body = { quantity: 2, vintage: 2019 };
    const first = await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles`, body, key);
    const second = await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles`, body, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect((await bottlesOf(wine.id)).map((b) => b.quantity)).toEqual([2]);
    expect(await eventsOf(wine.id)).toEqual([{ kind: 'ADDED', change: 2 }]);
  });
});

describe('changing and taking off bottles', () => {
  it('changes any field; a new quantity is recorded as its difference (CHANGED)', async () => {
    const wine = await entry('Changed');
    const rack = await place('Changing rack');
    const line = await add(wine.id, { quantity: 3, price: 10, currency: 'USD' });
    expect((await listed(alice.cookie, wine.id))?.bottleCount).toBe(3);
    clock += 60_000;
    let res = await send(alice.cookie, 'PATCH', `/beverages/${wine.id}/bottles/${line.id}`, {
      quantity: 5,
      placeId: rack,
      vintage: 2018,
      note: 'Moved',
    });
    expect(res.status).toBe(200);
    expect(bottleResponseSchema.parse(await res.json()).bottle).toMatchObject({
      quantity: 5,
      placeId: rack,
      placePath: ['Changing rack'],
      vintage: 2018,
      note: 'Moved',
      price: 10,
      currency: 'USD',
    });
    expect((await seen(alice.cookie, wine.id)).bottleCount).toBe(5);
    res = await send(alice.cookie, 'PATCH', `/beverages/${wine.id}/bottles/${line.id}`, {
      quantity: 2,
      vintage: null,
      placeId: null,
      price: null,
    });
    expect((await json(res)).bottle).toMatchObject({
      quantity: 2,
      vintage: null,
      placeId: null,
      price: null,
      currency: null,
    });
    // A price again needs its currency.
    expect(
      await refusal(
        await send(alice.cookie, 'PATCH', `/beverages/${wine.id}/bottles/${line.id}`, { price: 9 }),
      ),
    ).toEqual({ status: 400, message: 'Give the currency of the price' });
    res = await send(alice.cookie, 'PATCH', `/beverages/${wine.id}/bottles/${line.id}`, {
      price: 9.99,
      currency: 'GBP',
    });
    expect((await json(res)).bottle).toMatchObject({ price: 9.99, currency: 'GBP' });
    expect(await eventsOf(wine.id)).toEqual([
      { kind: 'ADDED', change: 3 },
      { kind: 'CHANGED', change: 2 },
      { kind: 'CHANGED', change: -3 },
    ]);
    expect((await listed(alice.cookie, wine.id))?.bottleCount).toBe(2);
  });

  it('refuses a bad change (400), a bottle of another entry or none (404)', async () => {
    const wine = await entry('Guarded');
    const other = await entry('Other');
    const line = await add(wine.id, {});
    const elsewhere = await add(other.id, {});
    expect(
      await refusal(
        await send(alice.cookie, 'PATCH', `/beverages/${wine.id}/bottles/${line.id}`, {
          quantity: 0,
        }),
      ),
    ).toEqual({ status: 400, message: 'Quantity must be a whole number from 1 to 9999' });
    for (const [method, body] of [
      ['PATCH', { quantity: 3 }],
      ['DELETE', undefined],
      ['POST', {}],
    ] as const) {
      const suffix = method === 'POST' ? '/open' : '';
      for (const bottleId of [elsewhere.id, 999999]) {
        const res = await send(
          alice.cookie,
          method,
          `/beverages/${wine.id}/bottles/${bottleId}${suffix}`,
          body,
        );
        expect(await refusal(res)).toEqual({ status: 404, message: 'Bottle not found' });
      }
    }
    expect((await bottlesOf(other.id)).map((b) => b.quantity)).toEqual([1]);
  });

  it('takes a line off (REMOVED), leaving the entry in the cellar', async () => {
    const wine = await entry('Given away');
    const line = await add(wine.id, { quantity: 4 });
    expect((await listed(alice.cookie, wine.id))?.bottleCount).toBe(4);
    const res = await send(alice.cookie, 'DELETE', `/beverages/${wine.id}/bottles/${line.id}`);
    expect(res.status).toBe(204);
    expect((await listed(alice.cookie, wine.id))?.bottleCount).toBe(0);
    expect(await bottlesOf(wine.id)).toEqual([]);
    expect(await seen(alice.cookie, wine.id)).toMatchObject({ inCellar: true, bottleCount: 0 });
    expect(await eventsOf(wine.id)).toEqual([
      { kind: 'ADDED', change: 4 },
      { kind: 'REMOVED', change: -4 },
    ]);
  });
});

describe('deleting an entry with bottles', () => {
  it('records its bottles as taken off (REMOVED), so that the cellar history stays true', async () => {
    const wine = await entry('Deleted with bottles');
    const line = await add(wine.id, { quantity: 3 });
    await add(wine.id, { quantity: 2 });
    await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles/${line.id}/open`);
    const res = await send(alice.cookie, 'DELETE', `/beverages/${wine.id}`);
    expect(res.status).toBe(204);
    expect(await eventsOf(wine.id)).toEqual([
      { kind: 'ADDED', change: 3 },
      { kind: 'ADDED', change: 2 },
      { kind: 'OPENED', change: -1 },
      { kind: 'REMOVED', change: -4 },
    ]);
    const lines = await vault.ctx.database.database
      .prepare('SELECT count(*) FROM bottles WHERE beverage_id = ?')
      .pluck()
      .get(wine.id);
    expect(lines).toBe(0);
    // Without bottles, nothing is recorded.
    const bare = await entry('Deleted bare');
    await send(alice.cookie, 'DELETE', `/beverages/${bare.id}`);
    expect(await eventsOf(bare.id)).toEqual([]);
  });
});

describe('opening a bottle', () => {
  it('takes one out (OPENED) and writes the tasting, dated today (UTC) with the vintage, answering the bottle, tasting and entry', async () => {
    const wine = await entry('Opened');
    const line = await add(wine.id, { quantity: 3, vintage: 2016 });
    expect((await listed(alice.cookie, wine.id))?.bottleCount).toBe(3);
    clock = Date.UTC(2026, 4, 14, 23, 30); // late evening: still the 14th in UTC
    const res = await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles/${line.id}/open`, {
      tasting: { rating: 4, notes: '  Cherries, still tight. ' },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = openBottleResponseSchema.parse(await res.json());
    expect(answer.bottle).toMatchObject({ id: line.id, quantity: 2, vintage: 2016 });
    expect(answer.tasting).toMatchObject({
      beverageId: wine.id,
      tastedOn: '2026-05-14',
      rating: 4,
      notes: 'Cherries, still tight.',
      photoPath: null,
      vintage: 2016,
      opened: true,
    });
    expect(answer.beverage).toMatchObject({ id: wine.id, inCellar: true, bottleCount: 2 });
    expect((await listed(alice.cookie, wine.id))?.bottleCount).toBe(2);
    const stored = await vault.ctx.database.database
      .prepare('SELECT tasted_on, rating, opened, user_id FROM tastings WHERE id = ?')
      .get(answer.tasting!.id);
    expect(stored).toEqual({ tasted_on: '2026-05-14', rating: 4, opened: 1, user_id: alice.id });
    // The entry's own rating is not the tasting's.
    expect(answer.beverage.rating).toBe(wine.rating);
    expect(await eventsOf(wine.id)).toEqual([
      { kind: 'ADDED', change: 3 },
      { kind: 'OPENED', change: -1 },
    ]);
  });

  it('takes form data with a photo in one request: the tasting has the photo; a photo that is not an image opens nothing', async () => {
    const wine = await entry('Opened with a photo');
    const line = await add(wine.id, { quantity: 2, vintage: 2015 });
    const path = `/beverages/${wine.id}/bottles/${line.id}/open`;
    const formOf = (photo: Uint8Array, type: string) => {
      const form = new FormData();
      form.set('rating', '5');
      form.set('notes', 'From the basement.');
      form.set('keepInCellar', 'false');
      form.set('photo', new Blob([photo], { type }), 'glass.jpg');
      return form;
    };
    const refused = await vault.request(`/api${path}`, {
      method: 'POST',
      cookie: alice.cookie,
      body: formOf(
        new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        'image/svg+xml',
      ),
    });
    expect(refused.status).toBe(415);
    expect((await bottlesOf(wine.id)).map((b) => b.quantity)).toEqual([2]);
    const res = await vault.request(`/api${path}`, {
      method: 'POST',
      cookie: alice.cookie,
      body: formOf(await jpeg(300, 200), 'image/jpeg'),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = openBottleResponseSchema.parse(await res.json());
    expect(answer.bottle.quantity).toBe(1);
    expect(answer.tasting).toMatchObject({
      rating: 5,
      notes: 'From the basement.',
      vintage: 2015,
      opened: true,
    });
    expect(answer.tasting!.photoPath).toMatch(/^media\/[0-9a-f]{32}\.jpg$/);
    expect(
      (await vault.request(`/${answer.tasting!.photoPath}`, { cookie: alice.cookie })).status,
    ).toBe(200);
  });

  it('without a body or tasting writes no tasting; a given day is kept', async () => {
    const wine = await entry('Plain');
    const line = await add(wine.id, { quantity: 3 });
    let res = await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles/${line.id}/open`);
    expect(res.status).toBe(200);
    expect((await json(res)).tasting).toBeNull();
    res = await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles/${line.id}/open`, {});
    expect((await json(res)).tasting).toBeNull();
    res = await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles/${line.id}/open`, {
      tasting: { tastedOn: '2025-12-24' },
    });
    expect((await json(res)).tasting).toMatchObject({ tastedOn: '2025-12-24', rating: null });
    expect(await bottlesOf(wine.id)).toEqual([]);
  });

  it('refuses a bad tasting (400) and changes nothing', async () => {
    const wine = await entry('Bad tasting');
    const line = await add(wine.id, { quantity: 2 });
    for (const body of [
      { tasting: { rating: 6 } },
      { tasting: { tastedOn: 'yesterday' } },
      { keepInCellar: 'no' },
      { opened: true },
    ]) {
      const res = await send(
        alice.cookie,
        'POST',
        `/beverages/${wine.id}/bottles/${line.id}/open`,
        body,
      );
      expect(res.status).toBe(400);
    }
    expect((await bottlesOf(wine.id)).map((b) => b.quantity)).toEqual([2]);
    expect(await eventsOf(wine.id)).toEqual([{ kind: 'ADDED', change: 2 }]);
  });

  it("on the entry's last bottle: the line goes (quantity 0), and keepInCellar false takes the entry out of the cellar", async () => {
    const wine = await entry('Last one');
    const line = await add(wine.id, { quantity: 1 });
    const res = await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles/${line.id}/open`, {
      keepInCellar: false,
    });
    const answer = openBottleResponseSchema.parse(await res.json());
    expect(answer.bottle).toMatchObject({ id: line.id, quantity: 0 });
    expect(answer.beverage).toMatchObject({ inCellar: false, bottleCount: 0 });
    expect(await activitiesOf(wine.id)).toEqual(['Create', 'Update', 'Update']);
    expect(await bottlesOf(wine.id)).toEqual([]);
    expect((await seen(alice.cookie, wine.id)).inCellar).toBe(false);
    expect(await listed(alice.cookie, wine.id, '&cellar=true')).toBeUndefined();
  });

  it('on the last bottle stays in the cellar by default, and keepInCellar is ignored while other bottles are left', async () => {
    const kept = await entry('Kept');
    const only = await add(kept.id, {});
    let res = await send(alice.cookie, 'POST', `/beverages/${kept.id}/bottles/${only.id}/open`);
    expect((await json(res)).beverage).toMatchObject({ inCellar: true, bottleCount: 0 });

    const two = await entry('Two lines');
    const first = await add(two.id, { quantity: 1 });
    await add(two.id, { quantity: 1, vintage: 2020 });
    res = await send(alice.cookie, 'POST', `/beverages/${two.id}/bottles/${first.id}/open`, {
      keepInCellar: false,
    });
    expect((await json(res)).beverage).toMatchObject({ inCellar: true, bottleCount: 1 });
  });

  it('with none left in a line is a 409', async () => {
    const wine = await entry('Empty line');
    await add(wine.id, {});
    // A line without bottles cannot be made through the API (it goes at 0): written directly.
    const empty = await insertBottle(
      vault.ctx.database.database,
      { id: wine.id, userId: alice.id },
      {
        quantity: 0,
      },
    );
    expect(
      await refusal(
        await send(alice.cookie, 'POST', `/beverages/${wine.id}/bottles/${empty}/open`, {
          tasting: { rating: 3 },
        }),
      ),
    ).toEqual({ status: 409, message: 'There is no bottle left to open' });
    expect(await eventsOf(wine.id)).toEqual([{ kind: 'ADDED', change: 1 }]);
  });
});
