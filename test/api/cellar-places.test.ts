import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLACE_MAX_DEPTH,
  placeListSchema,
  placeResponseSchema,
  type Place,
} from '../../contract/cellar.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The places of a cellar (POST/GET /api/cellar/places, PATCH/DELETE /api/cellar/places/{id}):
// the user's own, nested, named once among siblings, never inside themselves, deleted only
// without bottles in them or below.

let vault: TestVault;
let alice: string;
let bob: string;
let admin: string;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice' });
  const b = await vault.createUser({ username: 'bob' });
  const root = await vault.createUser({ username: 'root', role: 'ADMIN' });
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  admin = await vault.login('root', root.password);
});
afterAll(() => vault.close());

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  body === undefined
    ? vault.request(`/api${path}`, { method, cookie })
    : vault.postJson(`/api${path}`, body, cookie, method);

async function refusal(res: Response) {
  return { status: res.status, message: (await json(res)).message as string };
}

async function made(cookie: string, name: string, parentId?: number): Promise<Place> {
  const res = await send(cookie, 'POST', '/cellar/places', { name, parentId });
  expect(res.status, await res.clone().text()).toBe(201);
  return placeResponseSchema.parse(await res.json()).place;
}

async function placesOf(cookie: string): Promise<Place[]> {
  const res = await send(cookie, 'GET', '/cellar/places');
  expect(res.status).toBe(200);
  return placeListSchema.parse(await res.json()).places;
}

async function bottleIn(cookie: string, placeId: number, quantity: number) {
  const entry = await vault.logEntry(cookie, { name: `In ${placeId}`, type: 'WINE' });
  const res = await send(cookie, 'POST', `/beverages/${entry.id}/bottles`, { quantity, placeId });
  expect(res.status, await res.clone().text()).toBe(201);
  return { entryId: entry.id, bottleId: (await json(res)).bottle.id as number };
}

describe('places', () => {
  it('are made at the top and inside each other, listed in tree order with their paths and bottle counts', async () => {
    const kitchen = await made(alice, 'Kitchen fridge');
    const basement = await made(alice, '  Basement ');
    const rack = await made(alice, 'Rack A', basement.id);
    const bin = await made(alice, 'Bin 3', rack.id);
    expect(basement).toMatchObject({ name: 'Basement', parentId: null, path: ['Basement'] });
    expect(bin).toMatchObject({
      parentId: rack.id,
      path: ['Basement', 'Rack A', 'Bin 3'],
      bottleCount: 0,
      totalBottleCount: 0,
    });
    await bottleIn(alice, rack.id, 2);
    await bottleIn(alice, bin.id, 6);
    await bottleIn(alice, kitchen.id, 1);

    const places = await placesOf(alice);
    expect(places.map((p) => [p.path.join(' › '), p.bottleCount, p.totalBottleCount])).toEqual([
      ['Basement', 0, 8],
      ['Basement › Rack A', 2, 8],
      ['Basement › Rack A › Bin 3', 6, 6],
      ['Kitchen fridge', 1, 1],
    ]);
    // Bob has none of them.
    expect(await placesOf(bob)).toEqual([]);
    // The list is kept between writes, and made again after one.
    await bottleIn(alice, kitchen.id, 2);
    const again = await placesOf(alice);
    expect(again.find((p) => p.id === kitchen.id)?.bottleCount).toBe(3);
    expect(again.find((p) => p.id === basement.id)?.totalBottleCount).toBe(8);
  });

  it('are renamed and moved, to the top with parentId null', async () => {
    const cellar = await made(alice, 'Wine cellar');
    const shelf = await made(alice, 'Shelf', cellar.id);
    const garage = await made(alice, 'Garage');
    let res = await send(alice, 'PATCH', `/cellar/places/${shelf.id}`, {
      name: 'Top shelf',
      parentId: garage.id,
    });
    expect(res.status).toBe(200);
    expect(placeResponseSchema.parse(await res.json()).place).toMatchObject({
      name: 'Top shelf',
      parentId: garage.id,
      path: ['Garage', 'Top shelf'],
    });
    res = await send(alice, 'PATCH', `/cellar/places/${shelf.id}`, { parentId: null });
    expect((await json(res)).place).toMatchObject({ parentId: null, path: ['Top shelf'] });
    res = await send(alice, 'PATCH', `/cellar/places/${shelf.id}`, { name: 'Shelf 2' });
    expect((await json(res)).place).toMatchObject({ name: 'Shelf 2', parentId: null });
  });

  it('refuse a bad body with a 400', async () => {
    const refusals = [];
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(81) },
      { name: 'Loft', parentId: 'one' },
      { name: 'Loft', parentId: 0 },
      { name: 'Loft', colour: 'red' },
    ]) {
      refusals.push(await refusal(await send(alice, 'POST', '/cellar/places', body)));
    }
    expect(refusals).toEqual([
      { status: 400, message: 'Name is required' },
      { status: 400, message: 'Name is required' },
      { status: 400, message: 'Name is required' },
      { status: 400, message: 'Name must be at most 80 characters long' },
      { status: 400, message: 'parentId must be an id' },
      { status: 400, message: 'parentId must be an id' },
      { status: 400, message: 'Unknown field: colour' },
    ]);
    const place = await made(alice, 'Attic');
    expect(
      await refusal(await send(alice, 'PATCH', `/cellar/places/${place.id}`, { name: '' })),
    ).toEqual({ status: 400, message: 'Name is required' });
    expect((await send(alice, 'PATCH', '/cellar/places/abc', { name: 'x' })).status).toBe(400);
  });

  it("of another user's are not found (404), whoever asks, admins too", async () => {
    const bobs = await made(bob, 'Bob garage');
    for (const cookie of [alice, admin]) {
      expect(
        await refusal(
          await send(cookie, 'POST', '/cellar/places', {
            name: 'Inside bob',
            parentId: bobs.id,
          }),
        ),
      ).toEqual({ status: 404, message: 'Place not found' });
      const rename = await send(cookie, 'PATCH', `/cellar/places/${bobs.id}`, { name: 'Mine' });
      expect(rename.status).toBe(404);
      expect((await send(cookie, 'DELETE', `/cellar/places/${bobs.id}`)).status).toBe(404);
    }
    const mine = await made(alice, 'Alice shed');
    expect(
      (await send(alice, 'PATCH', `/cellar/places/${mine.id}`, { parentId: bobs.id })).status,
    ).toBe(404);
    expect((await send(alice, 'DELETE', '/cellar/places/999999')).status).toBe(404);
    expect((await placesOf(bob)).map((p) => p.name)).toContain('Bob garage');
  });

  it('cannot move into themselves or a place inside them (400)', async () => {
    const house = await made(alice, 'House');
    const room = await made(alice, 'Room', house.id);
    const box = await made(alice, 'Box', room.id);
    for (const target of [house, room, box]) {
      expect(
        await refusal(
          await send(alice, 'PATCH', `/cellar/places/${house.id}`, { parentId: target.id }),
        ),
      ).toEqual({ status: 400, message: 'A place cannot go inside itself or a place inside it' });
    }
    expect((await placesOf(alice)).find((p) => p.id === house.id)?.parentId).toBeNull();
  });

  it('have names unique among siblings, whatever the case (409), but not across parents', async () => {
    const one = await made(alice, 'Rack');
    const two = await made(alice, 'Rack 2');
    await made(alice, 'Bin', one.id);
    await made(alice, 'Bin', two.id); // another parent: fine
    const taken = { status: 409, message: 'There is already a place called rack here' };
    expect(await refusal(await send(alice, 'POST', '/cellar/places', { name: 'rack' }))).toEqual(
      taken,
    );
    expect(
      await refusal(await send(alice, 'PATCH', `/cellar/places/${two.id}`, { name: 'rack' })),
    ).toEqual(taken);
    // Moving a 'Bin' beside another 'Bin'.
    const loose = await made(alice, 'bin');
    expect(
      await refusal(await send(alice, 'PATCH', `/cellar/places/${loose.id}`, { parentId: one.id })),
    ).toEqual({ status: 409, message: 'There is already a place called bin here' });
    // Renaming a place to its own name is no clash.
    const same = await send(alice, 'PATCH', `/cellar/places/${one.id}`, { name: 'Rack' });
    expect(same.status).toBe(200);
    // Bob may have his own 'Rack'.
    await made(bob, 'Rack');
  });

  it(`nest at most ${PLACE_MAX_DEPTH} deep, when made and when moved`, async () => {
    let parent: Place | undefined;
    const chain: Place[] = [];
    for (let i = 1; i <= PLACE_MAX_DEPTH; i++) {
      parent = await made(alice, `Level ${i}`, parent?.id);
      chain.push(parent);
    }
    const tooDeep = {
      status: 400,
      message: `Places can be nested at most ${PLACE_MAX_DEPTH} deep`,
    };
    expect(
      await refusal(
        await send(alice, 'POST', '/cellar/places', { name: 'Deeper', parentId: parent!.id }),
      ),
    ).toEqual(tooDeep);
    const pair = await made(alice, 'Pair');
    await made(alice, 'Pair child', pair.id);
    expect(
      await refusal(
        await send(alice, 'PATCH', `/cellar/places/${pair.id}`, {
          parentId: chain[PLACE_MAX_DEPTH - 2]!.id,
        }),
      ),
    ).toEqual(tooDeep);
    const fits = await send(alice, 'PATCH', `/cellar/places/${pair.id}`, {
      parentId: chain[PLACE_MAX_DEPTH - 3]!.id,
    });
    expect(fits.status).toBe(200);
  });

  it('are deleted with the empty places inside them, and not while a bottle is in them or below (409)', async () => {
    const shed = await made(alice, 'Shed');
    const crate = await made(alice, 'Crate', shed.id);
    const corner = await made(alice, 'Corner', crate.id);
    const { entryId, bottleId } = await bottleIn(alice, corner.id, 1);
    // Each refusal names where the bottle is, from the place to be deleted down.
    const refusals: Record<string, string> = {};
    for (const place of [shed, crate, corner]) {
      const res = await send(alice, 'DELETE', `/cellar/places/${place.id}`);
      expect(res.status).toBe(409);
      refusals[place.name] = (await refusal(res)).message;
    }
    expect(refusals).toEqual({
      Shed: 'Shed holds 1 bottle: 1 in Shed › Crate › Corner. Move it out before deleting it.',
      Crate: 'Crate holds 1 bottle: 1 in Crate › Corner. Move it out before deleting it.',
      Corner: 'Corner holds 1 bottle. Move it out before deleting it.',
    });
    // The bottle moves out; the place and the two inside it go.
    const moved = await send(alice, 'PATCH', `/beverages/${entryId}/bottles/${bottleId}`, {
      placeId: null,
    });
    expect(moved.status).toBe(200);
    expect((await send(alice, 'DELETE', `/cellar/places/${shed.id}`)).status).toBe(204);
    const left = (await placesOf(alice)).map((p) => p.id);
    expect(left).not.toContain(shed.id);
    expect(left).not.toContain(crate.id);
    expect(left).not.toContain(corner.id);
    expect((await send(alice, 'DELETE', `/cellar/places/${shed.id}`)).status).toBe(404);
  });

  it('are refused with where the bottles are: the place and each place inside it holding any, with their counts', async () => {
    const cave = await made(alice, 'Cave');
    const rack = await made(alice, 'Rack A', cave.id);
    const bin = await made(alice, 'Bin 3', rack.id);
    await made(alice, 'Empty shelf', cave.id);
    await bottleIn(alice, cave.id, 3);
    await bottleIn(alice, cave.id, 1);
    await bottleIn(alice, bin.id, 2);
    const before = await placesOf(alice);

    expect(await refusal(await send(alice, 'DELETE', `/cellar/places/${cave.id}`))).toEqual({
      status: 409,
      message:
        'Cave holds 6 bottles: 4 in Cave, 2 in Cave › Rack A › Bin 3. Move them out before deleting it.',
    });
    expect(await refusal(await send(alice, 'DELETE', `/cellar/places/${bin.id}`))).toEqual({
      status: 409,
      message: 'Bin 3 holds 2 bottles. Move them out before deleting it.',
    });
    // Refused, nothing changed.
    expect(await placesOf(alice)).toEqual(before);
  });
});
