import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beveragePageSchema, type Beverage } from '../../contract/beverages.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// Bottles, places and counts are their owner's alone: anyone else who may see the entry (a
// member, an admin, a share's recipient) gets a 404 for its bottles and no bottleCount; and the
// placeId filter of GET /api/beverages (the owner's entries with a bottle in a place or below).

let vault: TestVault;
let alice: { id: number; cookie: string };
let bob: { id: number; cookie: string };
let admin: { id: number; cookie: string };

beforeAll(async () => {
  vault = createTestVault();
  const person = async (username: string, role: 'USER' | 'ADMIN' = 'USER') => {
    const user = await vault.createUser({ username, role });
    return { id: user.id, cookie: await vault.login(username, user.password) };
  };
  alice = await person('alice');
  bob = await person('bob');
  admin = await person('root', 'ADMIN');
});
afterAll(() => vault.close());

const send = (cookie: string, method: string, path: string, body?: unknown) =>
  body === undefined
    ? vault.request(`/api${path}`, { method, cookie })
    : vault.postJson(`/api${path}`, body, cookie, method);

async function posted<T>(cookie: string, path: string, body: unknown, field: string): Promise<T> {
  const res = await send(cookie, 'POST', path, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await json(res))[field] as T;
}

async function page(cookie: string, query: string): Promise<Beverage[]> {
  const res = await send(cookie, 'GET', `/beverages?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return beveragePageSchema.parse(await res.json()).beverages;
}

describe("an entry's bottles", () => {
  it('are 404 for anyone but the owner, who may see the entry but never its bottles or count', async () => {
    const wine = await vault.logEntry(alice.cookie, { name: 'Members wine', type: 'WINE' });
    const line = await posted<{ id: number }>(
      alice.cookie,
      `/beverages/${wine.id}/bottles`,
      { quantity: 4, price: 30, currency: 'EUR' },
      'bottle',
    );
    // Bob is shared the entry, and adds it to his vault: he may see it in every way.
    const share = await send(alice.cookie, 'POST', `/beverages/${wine.id}/share`, {
      userId: bob.id,
    });
    expect(share.status).toBe(200);
    await vault.ctx.outbox.idle();
    const notifications = await json(await send(bob.cookie, 'GET', '/notifications'));
    const invite = notifications.notifications.find(
      (n: { type: string; beverage?: { id: number } }) =>
        n.type === 'SHARE_INVITE' && n.beverage?.id === wine.id,
    );
    const accepted = await send(bob.cookie, 'POST', `/notifications/${invite.id}/respond`, {
      action: 'ACCEPT',
      status: 'TRIED',
    });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    expect((await json(accepted)).beverage).not.toHaveProperty('bottleCount');

    for (const who of [bob, admin]) {
      const entry = await json(await send(who.cookie, 'GET', `/beverages/${wine.id}`));
      expect(entry.beverage.name).toBe('Members wine');
      expect(entry.beverage).not.toHaveProperty('bottleCount');
      for (const list of [`userId=${alice.id}`, `userId=${alice.id}&cellar=true`, '']) {
        for (const listed of await page(who.cookie, list)) {
          expect(listed, `${list} as ${who.id}`).not.toHaveProperty('bottleCount');
        }
      }
      const refusals = [
        await send(who.cookie, 'GET', `/beverages/${wine.id}/bottles`),
        await send(who.cookie, 'POST', `/beverages/${wine.id}/bottles`, {}),
        await send(who.cookie, 'PATCH', `/beverages/${wine.id}/bottles/${line.id}`, {
          quantity: 9,
        }),
        await send(who.cookie, 'POST', `/beverages/${wine.id}/bottles/${line.id}/open`, {}),
        await send(who.cookie, 'DELETE', `/beverages/${wine.id}/bottles/${line.id}`),
      ];
      for (const res of refusals) {
        expect(await json(res)).toEqual({ message: 'Beverage not found' });
        expect(res.status).toBe(404);
      }
    }
    // Bob's own list, with the shared entry in it: no count there either.
    const bobs = await page(bob.cookie, '');
    expect(bobs.map((b) => b.id)).toContain(wine.id);
    // Nothing changed; the owner sees it all.
    const own = await json(await send(alice.cookie, 'GET', `/beverages/${wine.id}/bottles`));
    expect(own.bottles.map((b: { quantity: number }) => b.quantity)).toEqual([4]);
    const mine = await page(alice.cookie, `userId=${alice.id}`);
    expect(mine.find((b) => b.id === wine.id)?.bottleCount).toBe(4);
  });
});

describe('GET /beverages?placeId', () => {
  it("lists the owner's entries with a bottle in the place or a place inside it", async () => {
    const basement = await posted<{ id: number }>(
      alice.cookie,
      '/cellar/places',
      { name: 'Basement' },
      'place',
    );
    const rack = await posted<{ id: number }>(
      alice.cookie,
      '/cellar/places',
      { name: 'Rack', parentId: basement.id },
      'place',
    );
    const fridge = await posted<{ id: number }>(
      alice.cookie,
      '/cellar/places',
      { name: 'Fridge' },
      'place',
    );
    const log = async (name: string, placeId: number | null) => {
      const made = await vault.logEntry(alice.cookie, { name, type: 'WINE' });
      if (placeId !== undefined) {
        await posted(alice.cookie, `/beverages/${made.id}/bottles`, { placeId }, 'bottle');
      }
      return made;
    };
    await log('Racked barolo', rack.id);
    await log('Basement rioja', basement.id);
    const both = await log('Cold riesling', fridge.id);
    await posted(alice.cookie, `/beverages/${both.id}/bottles`, { placeId: rack.id }, 'bottle');
    await log('Nowhere', null);
    const names = async (cookie: string, query: string) =>
      (await page(cookie, query)).map((b) => b.name).sort();

    expect(await names(alice.cookie, `placeId=${basement.id}`)).toEqual([
      'Basement rioja',
      'Cold riesling',
      'Racked barolo',
    ]);
    expect(await names(alice.cookie, `placeId=${rack.id}`)).toEqual([
      'Cold riesling',
      'Racked barolo',
    ]);
    expect(await names(alice.cookie, `placeId=${fridge.id}`)).toEqual(['Cold riesling']);
    // With the other filters, search words and paging.
    expect(await names(alice.cookie, `placeId=${basement.id}&q=rio`)).toEqual(['Basement rioja']);
    expect(await names(alice.cookie, `placeId=${rack.id}&type=BEER`)).toEqual([]);
    const first = await send(alice.cookie, 'GET', `/beverages?placeId=${basement.id}&limit=2`);
    expect((await json(first)).nextCursor).not.toBeNull();

    // A place of someone else's holds nothing for them; nor does the owner's place in their list.
    expect(await names(bob.cookie, `placeId=${basement.id}`)).toEqual([]);
    expect(await names(bob.cookie, `userId=${alice.id}&placeId=${basement.id}`)).toEqual([]);
    expect(await names(admin.cookie, `userId=${alice.id}&placeId=${basement.id}&q=rio`)).toEqual(
      [],
    );
    expect(await names(alice.cookie, 'placeId=999999')).toEqual([]);

    const bad = await send(alice.cookie, 'GET', '/beverages?placeId=rack');
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ message: 'placeId must be a place id' });
  });
});
