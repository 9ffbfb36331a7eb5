import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { reset, type LogRecord } from '@logtape/logtape';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPhoto } from '../../federation/inbox/fetch-photo.ts';
import { createNoteActivity } from '../../federation/note.ts';
import {
  ACTIVITY_JSON,
  startFakeRemote,
  type FakeRemote,
  type Json,
} from '../helpers/fake-remote.ts';
import { jpeg, HTML } from '../helpers/images.ts';
import { captureLogs } from '../helpers/logs.ts';
import {
  activities,
  count,
  deliver,
  follow,
  remoteEntry,
  remoteItems,
  settled,
  startWorld,
  type World,
} from './inbox-entries-world.ts';

let world: World;
let elsewhere: FakeRemote;
/** A loopback server that counts the requests for each path (photos). */
let photos: { url: (name: string) => string; hits: Map<string, number>; close(): Promise<void> };

const logged: LogRecord[] = [];

beforeAll(async () => {
  await captureLogs('info', logged);
  world = await startWorld(['alice']);
  await follow(world, 'alice');
  await follow(world, 'alice', `${world.remote.origin}/users/cooper`);
  world.remote.addAccount('stranger');
  elsewhere = await startFakeRemote();
  elsewhere.addAccount('barrel');
  const image = await jpeg(64, 48);
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    if (req.url === '/huge.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(Buffer.alloc(16 * 1024 * 1024, 0xff));
    } else if (req.url === '/page.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(HTML);
    } else res.writeHead(200, { 'content-type': 'image/jpeg' }).end(image);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  photos = {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
afterAll(async () => {
  await Promise.all([world?.close(), elsewhere?.close(), photos?.close()]);
  await reset();
});

const uploads = () =>
  fs.readdirSync(world.vault.ctx.config.uploadsDir).filter((name) => name.endsWith('.jpg'));

/** Delivers, waits for the inbox, and expects that nothing was stored. */
async function expectIgnored(activity: Json, from = 'barrel') {
  const before = [
    await count(world, 'remote_entries'),
    await count(world, 'feed_items'),
    uploads().length,
  ];
  await deliver(world, activity, from);
  await settled(world);
  expect([
    await count(world, 'remote_entries'),
    await count(world, 'feed_items'),
    uploads().length,
  ]).toEqual(before);
}

describe('what the inbox refuses or ignores', () => {
  it('refuses an unsigned Create (401) and stores nothing', async () => {
    const res = await fetch(`${world.vault.url}/inbox`, {
      method: 'POST',
      headers: { 'content-type': ACTIVITY_JSON },
      body: JSON.stringify(await activities(world).create(remoteEntry({ name: 'Unsigned' }))),
    });
    expect(res.status).toBe(401);
    await settled(world);
    expect(await count(world, 'remote_entries')).toBe(0);
  });

  it('ignores a Note attributed to someone other than the activity’s actor', async () => {
    // cooper (followed too) sends a Create of a Note that says barrel wrote it.
    const forged = await activities(world).create(remoteEntry({ name: 'Forged' }));
    forged.actor = `${world.remote.origin}/users/cooper`;
    forged.id = `${world.remote.origin}/users/cooper/forged#create`;
    await expectIgnored(forged, 'cooper');
  });

  it('ignores a Note embedded from another origin, without fetching it', async () => {
    const foreign = (await createNoteActivity({
      entry: remoteEntry({ name: 'From elsewhere' }),
      author: { username: 'barrel', fullName: 'Barrel Keeper' },
      origin: elsewhere.origin,
    }).toJsonLd({ format: 'compact' })) as Json;
    foreign.actor = world.barrel;
    foreign.id = `${world.barrel}/carried#create`;
    const gets = elsewhere.gets.length;
    await expectIgnored(foreign);
    expect(elsewhere.gets.length).toBe(gets);
  });

  it('ignores a Note without the vault extension (a Mastodon status)', async () => {
    const { activity } = world.remote.activities.createNote('barrel', {
      content: '<p>Just a post</p>',
    });
    await expectIgnored(activity);
  });

  it('ignores entries of actors nobody here follows, without fetching their photo', async () => {
    const create = await activities(world, { username: 'stranger', fullName: 'Stranger' }).create(
      remoteEntry({
        name: 'Unfollowed',
        photo: { url: photos.url('stranger.jpg'), width: 64, height: 48 },
      }),
    );
    await expectIgnored(create, 'stranger');
    expect(photos.hits.get('/stranger.jpg')).toBeUndefined();
  });

  it('ignores entries of actors followed only with a pending follow', async () => {
    await follow(world, 'alice', `${world.remote.origin}/users/stranger`, 'PENDING');
    const create = await activities(world, { username: 'stranger', fullName: 'Stranger' }).create(
      remoteEntry({ name: 'Pending' }),
    );
    await expectIgnored(create, 'stranger');
  });

  it('accepts Like and Announce (202) and changes nothing', async () => {
    const note = `${world.barrel}/entries/1`;
    await expectIgnored(world.remote.activities.like('barrel', note));
    await expectIgnored(world.remote.activities.announce('barrel', note, world.barrel));
  });

  it('stores an entry whose photo is over the size limit or not an image without a photo', async () => {
    for (const [name, file] of [
      ['Oversize', 'huge.jpg'],
      ['Not an image', 'page.jpg'],
    ] as const) {
      const before = uploads().length;
      const entry = remoteEntry({ name, photo: { url: photos.url(file), width: 64, height: 48 } });
      await deliver(world, await activities(world).create(entry));
      await settled(world);
      const item = (await remoteItems(world, 'alice')).find((i) => i.beverage.name === name);
      expect(item?.beverage.photoPath, name).toBeNull();
      expect(photos.hits.get(`/${file}`), name).toBe(1);
      expect(uploads().length, name).toBe(before);
    }
  });

  it('fetches an object given by its id alone from the actor’s origin', async () => {
    const entry = remoteEntry({ name: 'By reference' });
    const create = await activities(world).create(entry);
    world.remote.publish(await activities(world).note(entry));
    create.object = (create.object as Json).id;
    await deliver(world, create);
    await settled(world);
    const names = (await remoteItems(world, 'alice')).map((i) => i.beverage.name);
    expect(names).toContain('By reference');
    // By reference to another origin: not fetched, not stored.
    const carried = await activities(world).create(remoteEntry({ name: 'Carried' }));
    carried.object = `${elsewhere.origin}/users/barrel/entries/1`;
    const gets = elsewhere.gets.length;
    await expectIgnored(carried);
    expect(elsewhere.gets.length).toBe(gets);
  });
});

describe('the log', () => {
  it('says why each refused activity changed nothing, and holds no error and no stack trace', () => {
    const text = (record: LogRecord) => record.message.map(String).join('');
    const inbox = logged.filter((r) => r.category.join('·') === 'vault·federation·inbox');
    const reasons = inbox.map(text).join('\n');
    expect(reasons).toContain('its Note is not attributed to its actor');
    expect(reasons).toContain('its object is embedded from another origin');
    expect(reasons).toContain('its object is on another origin');
    expect(reasons).toMatch(/Could not fetch the photo .*huge\.jpg.*larger than/);
    expect(logged.filter((r) => r.level === 'error' || r.level === 'fatal').map(text)).toEqual([]);
    expect(
      logged
        .map((r) =>
          JSON.stringify(r.properties, (_k, v: unknown) => (v instanceof Error ? v.stack : v)),
        )
        .filter((p) => /\n\s+at /.test(p)),
    ).toEqual([]);
  });
});

describe('the photo download', () => {
  const options = { userAgent: 'test', timeoutMs: 2000 };

  it('refuses a private address before any request, unless allowed', async () => {
    expect(
      await fetchPhoto(photos.url('private.jpg'), { ...options, allowPrivateAddress: false }),
    ).toBeUndefined();
    expect(photos.hits.get('/private.jpg')).toBeUndefined();
    const allowed = await fetchPhoto(photos.url('private.jpg'), {
      ...options,
      allowPrivateAddress: true,
    });
    expect(allowed?.byteLength).toBeGreaterThan(100);
    expect(photos.hits.get('/private.jpg')).toBe(1);
  });

  it('gives up on a body over the limit, with or without Content-Length', async () => {
    expect(
      await fetchPhoto(photos.url('huge.jpg'), { ...options, allowPrivateAddress: true }),
    ).toBeUndefined();
    const small = await fetchPhoto(photos.url('ok.jpg'), {
      ...options,
      allowPrivateAddress: true,
      maxBytes: 100,
    });
    expect(small).toBeUndefined();
  });

  it('refuses other schemes than http and https', async () => {
    expect(
      await fetchPhoto('file:///etc/passwd', { ...options, allowPrivateAddress: true }),
    ).toBeUndefined();
  });
});
