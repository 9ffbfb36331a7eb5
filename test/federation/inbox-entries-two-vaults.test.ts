import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beverageResponseSchema } from '../../contract/beverages.ts';
import { activityPageSchema, type RemoteActivityItem } from '../../contract/social.ts';
import { jpeg } from '../helpers/images.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Two real vaults on loopback ports: alice on A follows bob on B (by his actor URL, through the
 * follow API), bob logs an entry with a photo and it appears in alice's /activity with the
 * photo; alice adds it to her vault; bob edits it and deletes it, and alice's feed follows.
 */

let a: TestServer;
let b: TestServer;
let alice: string;
let bob: string;

async function signIn(site: TestServer, username: string): Promise<string> {
  await site.createUser({ username, password: `${username}-password`, activityPubEnabled: true });
  const res = await fetch(`${site.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site.url },
    body: JSON.stringify({ username, password: `${username}-password` }),
  });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .find((c) => c.includes('vault_session='))!
    .split(';')[0]!;
}

function api(site: TestServer, path: string, cookie: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('cookie', cookie);
  headers.set('origin', site.url);
  return fetch(`${site.url}/api${path}`, { ...init, headers });
}

const postJson = (site: TestServer, path: string, cookie: string, body: unknown) =>
  api(site, path, cookie, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function aliceRemoteItems(): Promise<RemoteActivityItem[]> {
  const res = await api(a, '/activity', alice);
  expect(res.status).toBe(200);
  return activityPageSchema
    .parse(await res.json())
    .activities.filter((item): item is RemoteActivityItem => item.kind === 'remote');
}

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  alice = await signIn(a, 'alice');
  bob = await signIn(b, 'bob');
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('an entry travelling from one vault to another', () => {
  let entryId: number;

  it('reaches the feed of a follower on the other vault, with its photo', async () => {
    const actorUri = `${b.url}/users/bob`;
    const found = await postJson(a, '/users/lookup', alice, { query: actorUri });
    expect(found.status).toBe(200);
    expect((await postJson(a, '/users/remote-follows', alice, { actorUri })).status).toBe(201);
    const accepted = await until(
      async () =>
        (await (await api(a, '/users/following', alice)).json()) as Record<string, unknown>,
      (list) => JSON.stringify(list).includes('"ACCEPTED"'),
    );
    expect(JSON.stringify(accepted)).toContain('"ACCEPTED"');

    const form = new FormData();
    form.append('name', 'Springbank 15');
    form.append('type', 'WHISKEY');
    form.append('subtype', 'Scotch');
    form.append('makerName', 'Springbank');
    form.append('rating', '5');
    form.append('notes', 'Oily, <b>briny</b>.');
    form.append('photo', new Blob([await jpeg(600, 800)], { type: 'image/jpeg' }), 'b.jpg');
    const created = await api(b, '/beverages', bob, { method: 'POST', body: form });
    expect(created.status).toBe(201);
    entryId = beverageResponseSchema.parse(await created.json()).beverage.id;

    const items = await until(aliceRemoteItems, (list) => list.length > 0);
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'remote',
        actor: expect.objectContaining({ actorUri }),
        beverage: expect.objectContaining({
          name: 'Springbank 15',
          makerName: 'Springbank',
          rating: 5,
          notes: 'Oily, <b>briny</b>.',
          noteUri: `${b.url}/users/bob/entries/${entryId}`,
          photoPath: expect.stringMatching(/^media\/[a-f0-9]{32}\.jpg$/),
        }),
      }),
    ]);
    const photo = await fetch(`${a.url}/${items[0]!.beverage.photoPath!}`, {
      headers: { cookie: alice },
    });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
  }, 40_000);

  it('is added to the follower’s vault with “Add to vault”', async () => {
    const [item] = await aliceRemoteItems();
    const res = await postJson(a, `/activity/remote-entries/${item!.beverage.id}/clone`, alice, {});
    expect(res.status).toBe(201);
    const { beverage } = beverageResponseSchema.parse(await res.json());
    expect(beverage).toMatchObject({ name: 'Springbank 15', status: 'TO_TRY', isOwner: true });
    expect(beverage.photoPath).not.toBe(item!.beverage.photoPath);
  });

  it('follows the author’s edit and deletion', async () => {
    const form = new FormData();
    form.append('rating', '3');
    form.append('notes', 'Less briny the second time.');
    const edited = await api(b, `/beverages/${entryId}`, bob, { method: 'PATCH', body: form });
    expect(edited.status).toBe(200);
    const after = await until(aliceRemoteItems, (list) => list[0]?.beverage.rating === 3);
    expect(after[0]!.beverage).toMatchObject({ rating: 3, notes: 'Less briny the second time.' });

    expect((await api(b, `/beverages/${entryId}`, bob, { method: 'DELETE' })).status).toBe(204);
    expect(await until(aliceRemoteItems, (list) => list.length === 0)).toEqual([]);
  }, 40_000);
});
