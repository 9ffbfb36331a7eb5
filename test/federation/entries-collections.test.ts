import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultContextDocument } from '../../federation/vault-context.ts';
import { serverPathOf } from '../../src/http/server-paths.ts';
import { vaultContextRoutes } from '../../src/routes/vault-context.ts';
import { startFakeRemote, type FakeRemote } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/** The outbox of a federated user's entries, and the /ns/vault context document. */

let vault: TestServer;
let remote: FakeRemote;
/** A server where nobody follows dave. */
let elsewhere: FakeRemote;
let outbox: string;
const ENTRIES = 25;

interface Page {
  type: string;
  totalItems?: number;
  first?: string;
  next?: string;
  orderedItems?: { id: string; type: string; object: { id: string; type: string } }[];
}

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const dave = await vault.createUser({
    username: 'dave',
    password: 'dave-password',
    activityPubEnabled: true,
  });
  [remote, elsewhere] = await Promise.all([startFakeRemote(), startFakeRemote()]);
  remote.addAccount('fan');
  elsewhere.addAccount('stranger');
  await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(dave.id),
    remote,
    'fan',
  );
  for (let i = 1; i <= ENTRIES; i++) {
    await vault.ctx.beverages.create(
      { id: dave.id, role: 'USER' },
      { type: 'BEER', name: `Ale ${i}` },
    );
  }
  outbox = `${vault.url}/users/dave/outbox`;
});
afterAll(async () => {
  await Promise.all([vault?.close(), remote?.close(), elsewhere?.close()]);
});

describe('the outbox collection', () => {
  it('lists the entries as Create activities, newest first, in pages of 20 with totalItems, for a follower', async () => {
    const collection = (await remote.signedGet('fan', outbox)).json() as Page;
    expect(collection).toMatchObject({ type: 'OrderedCollection', totalItems: ENTRIES });
    expect(collection.first).toBeDefined();
    const first = (await remote.signedGet('fan', collection.first!)).json() as Page;
    expect(first.type).toBe('OrderedCollectionPage');
    expect(first.orderedItems).toHaveLength(20);
    expect(first.orderedItems!.every((a) => a.type === 'Create' && a.object.type === 'Note')).toBe(
      true,
    );
    expect(first.orderedItems![0]!.id).toMatch(/\/users\/dave\/entries\/\d+#create$/);
    const ids = first.orderedItems!.map((a) => Number(a.object.id.split('/').at(-1)));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const second = (await remote.signedGet('fan', first.next!)).json() as Page;
    expect(second.orderedItems).toHaveLength(ENTRIES - 20);
    expect(second.next).toBeUndefined();
    const all = [...first.orderedItems!, ...second.orderedItems!].map((a) => a.id);
    expect(new Set(all).size).toBe(ENTRIES);
  });

  it('shows totalItems but no entries to an unsigned reader or a signed reader of a server with no follower', async () => {
    const unsigned = (await (
      await fetch(outbox, { headers: { accept: 'application/activity+json' } })
    ).json()) as Page;
    expect(unsigned.totalItems).toBe(ENTRIES);
    for (const page of [
      (await (
        await fetch(unsigned.first!, { headers: { accept: 'application/activity+json' } })
      ).json()) as Page,
      (await elsewhere.signedGet('stranger', unsigned.first!)).json() as Page,
    ]) {
      expect(page.orderedItems ?? []).toEqual([]);
    }
  });

  it('is 404 for a user who is not federated', async () => {
    await vault.createUser({ username: 'erin', password: 'erin-password' });
    const res = await remote.signedGet('fan', `${vault.url}/users/erin/outbox`);
    expect(res.status).toBe(404);
  });
});

describe('the /ns/vault context', () => {
  it('is a server path, served as application/ld+json with the vault terms', async () => {
    expect(serverPathOf('/ns/vault')?.serves).toBe('server');
    const app = new Hono().route('/ns', vaultContextRoutes('https://vault.example'));
    const res = await app.request('https://vault.example/ns/vault');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/ld+json');
    expect(await res.json()).toEqual(vaultContextDocument('https://vault.example'));
    expect((await app.request('https://vault.example/ns/other')).status).toBe(404);
  });

  it('is what the running server answers at /ns/vault, never the client', async () => {
    const res = await fetch(`${vault.url}/ns/vault`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/ld+json');
    expect(await res.json()).toEqual(vaultContextDocument(vault.url));
    const other = await fetch(`${vault.url}/ns/other`, { headers: { accept: 'text/html' } });
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
