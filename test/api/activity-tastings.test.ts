import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bottleResponseSchema } from '../../contract/cellar.ts';
import { activityPageSchema } from '../../contract/social.ts';
import { tastingResponseSchema } from '../../contract/tastings.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// A tasting of someone the caller follows is an item of their /activity, with the entry it is a
// tasting of, while the caller may see that entry; written through the tastings routes or by
// opening a bottle.

let vault: TestVault;
let alice: string;
let bob: string;
let carol: string;
let aliceId: number;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob' });
  const c = await vault.createUser({ username: 'carol' });
  aliceId = a.id;
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  carol = await vault.login('carol', c.password);
  expect((await vault.postJson(`/api/users/${aliceId}/follow`, {}, bob)).status).toBe(201);
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec('DELETE FROM feed_items; DELETE FROM beverages;');
});

async function feed(cookie: string) {
  await vault.ctx.outbox.idle();
  const res = await vault.request('/api/activity', { cookie });
  expect(res.status).toBe(200);
  return activityPageSchema.parse(await json(res)).activities;
}

async function taste(entryId: number, body: unknown) {
  const res = await vault.postJson(`/api/beverages/${entryId}/tastings`, body, alice);
  expect(res.status).toBe(201);
  return tastingResponseSchema.parse(await res.json()).tasting;
}

describe('tastings in /activity', () => {
  it('shows a tasting of a followed user as its own item, with the entry', async () => {
    const wine = await vault.logEntry(alice, { name: 'Barolo', type: 'WINE' });
    const tasting = await taste(wine.id, { rating: 4, notes: 'Tar and roses' });
    const items = await feed(bob);
    expect(items.map((i) => i.kind)).toEqual(['tasting', 'local']);
    const item = items[0]!;
    if (item.kind !== 'tasting') throw new Error('not a tasting');
    expect(item.actor).toEqual({ fullName: 'Alice Archer', username: 'alice' });
    expect(item.tasting).toMatchObject({ id: tasting.id, rating: 4, notes: 'Tar and roses' });
    expect(item.beverage).toMatchObject({ id: wine.id, name: 'Barolo', isOwner: false });
    // Nobody else's feed has it: carol does not follow alice, alice does not follow herself.
    expect(await feed(carol)).toEqual([]);
    expect(await feed(alice)).toEqual([]);
  });

  it('shows it only while the entry may be seen, and drops it with the tasting', async () => {
    const wine = await vault.logEntry(alice, { name: 'Secret', type: 'WINE' });
    const tasting = await taste(wine.id, { rating: 2 });
    expect((await feed(bob)).map((i) => i.kind)).toEqual(['tasting', 'local']);
    const form = new FormData();
    form.append('visibility', 'PRIVATE');
    const made = await vault.request(`/api/beverages/${wine.id}`, {
      method: 'PATCH',
      body: form,
      cookie: alice,
    });
    expect(made.status).toBe(200);
    expect(await feed(bob)).toEqual([]);
    const hidden = await vault.logEntry(alice, { name: 'Hidden', type: 'WINE' });
    const res = await vault.request(`/api/beverages/${hidden.id}/tastings/${tasting.id}`, {
      method: 'DELETE',
      cookie: alice,
    });
    expect(res.status).toBe(404); // not a tasting of that entry
    const back = new FormData();
    back.append('visibility', 'MEMBERS');
    await vault.request(`/api/beverages/${wine.id}`, {
      method: 'PATCH',
      body: back,
      cookie: alice,
    });
    expect((await feed(bob)).map((i) => i.kind)).toEqual(['local', 'tasting', 'local']);
    const gone = await vault.request(`/api/beverages/${wine.id}/tastings/${tasting.id}`, {
      method: 'DELETE',
      cookie: alice,
    });
    expect(gone.status).toBe(204);
    expect((await feed(bob)).map((i) => i.kind)).toEqual(['local', 'local']);
  });

  it('shows the tasting of an opened bottle, marked as opened, with its vintage', async () => {
    const wine = await vault.logEntry(alice, { name: 'Opened', type: 'WINE' });
    const added = await vault.postJson(
      `/api/beverages/${wine.id}/bottles`,
      { quantity: 2, vintage: 2016 },
      alice,
    );
    const bottle = bottleResponseSchema.parse(await added.json()).bottle;
    const opened = await vault.postJson(
      `/api/beverages/${wine.id}/bottles/${bottle.id}/open`,
      { tasting: { rating: 5 } },
      alice,
    );
    expect(opened.status).toBe(200);
    const [item] = await feed(bob);
    if (item?.kind !== 'tasting') throw new Error('not a tasting');
    expect(item.tasting).toMatchObject({ rating: 5, opened: true, vintage: 2016 });
    expect(item.beverage.id).toBe(wine.id);
  });
});
