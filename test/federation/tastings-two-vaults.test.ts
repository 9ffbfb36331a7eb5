import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beverageResponseSchema } from '../../contract/beverages.ts';
import { activityPageSchema, type RemoteActivityItem } from '../../contract/social.ts';
import { tastingResponseSchema } from '../../contract/tastings.ts';
import { jpeg } from '../helpers/images.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/**
 * Two real vaults on loopback ports: alice on A follows bob on B; bob logs an entry and then a
 * tasting of it with a photo. The tasting's Note reaches alice's /activity as a remote item
 * marked as a tasting (its day, whether a bottle was opened), with the tasting's rating, notes
 * and photo; bob's change and deletion of the tasting follow.
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

const sendJson = (site: TestServer, method: string, path: string, cookie: string, body: unknown) =>
  api(site, path, cookie, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 45_000) {
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

const tastingItems = async () => (await aliceRemoteItems()).filter((i) => i.beverage.tasting);

beforeAll(async () => {
  [a, b] = await Promise.all([startTestServer(), startTestServer()]);
  alice = await signIn(a, 'alice');
  bob = await signIn(b, 'bob');
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe('a tasting travelling from one vault to another', () => {
  it('reaches the feed of a follower on the other vault as a tasting, and follows its change and deletion', async () => {
    const actorUri = `${b.url}/users/bob`;
    expect((await sendJson(a, 'POST', '/users/lookup', alice, { query: actorUri })).status).toBe(
      200,
    );
    expect((await sendJson(a, 'POST', '/users/remote-follows', alice, { actorUri })).status).toBe(
      201,
    );
    const accepted = await until(
      async () => JSON.stringify(await (await api(a, '/users/following', alice)).json()),
      (list) => list.includes('"ACCEPTED"'),
    );
    expect(accepted).toContain('"ACCEPTED"');

    const form = new FormData();
    form.append('name', 'Hermitage');
    form.append('type', 'WINE');
    form.append('subtype', 'Syrah');
    form.append('rating', '3');
    const created = await api(b, '/beverages', bob, { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const entryId = beverageResponseSchema.parse(await created.json()).beverage.id;

    const tastingForm = new FormData();
    tastingForm.append('tastedOn', '2026-05-01');
    tastingForm.append('rating', '5');
    tastingForm.append('notes', 'Violets, <i>smoke</i>.');
    tastingForm.append('photo', new Blob([await jpeg(500, 400)], { type: 'image/jpeg' }), 't.jpg');
    const tasted = await api(b, `/beverages/${entryId}/tastings`, bob, {
      method: 'POST',
      body: tastingForm,
    });
    expect(tasted.status).toBe(201);
    const tastingId = tastingResponseSchema.parse(await tasted.json()).tasting.id;

    const items = await until(tastingItems, (list) => list.length > 0);
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'remote',
        actor: expect.objectContaining({ actorUri }),
        beverage: expect.objectContaining({
          name: 'Hermitage',
          subtype: 'Syrah',
          rating: 5,
          notes: 'Violets, <i>smoke</i>.',
          status: 'TRIED',
          tasting: { tastedOn: '2026-05-01', opened: false, vintage: null },
          noteUri: `${b.url}/users/bob/tastings/${tastingId}`,
          photoPath: expect.stringMatching(/^media\/[a-f0-9]{32}\.jpg$/),
        }),
      }),
    ]);
    // The entry itself arrived too, as an entry (no tasting).
    const entries = (await aliceRemoteItems()).filter((i) => !i.beverage.tasting);
    expect(entries.map((i) => i.beverage.name)).toEqual(['Hermitage']);
    const photo = await fetch(`${a.url}/${items[0]!.beverage.photoPath!}`, {
      headers: { cookie: alice },
    });
    expect(photo.status).toBe(200);

    const path = `/beverages/${entryId}/tastings/${tastingId}`;
    expect((await sendJson(b, 'PATCH', path, bob, { rating: 2 })).status).toBe(200);
    const changed = await until(tastingItems, (list) => list[0]?.beverage.rating === 2);
    expect(changed[0]!.beverage).toMatchObject({ rating: 2, notes: 'Violets, <i>smoke</i>.' });

    expect((await api(b, path, bob, { method: 'DELETE' })).status).toBe(204);
    expect(await until(tastingItems, (list) => list.length === 0)).toEqual([]);
  }, 120_000);
});
