import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg } from '../helpers/images.ts';
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

beforeAll(async () => {
  world = await startWorld(['alice']);
  await follow(world, 'alice');
  await follow(world, 'alice', `${world.remote.origin}/users/cooper`);
});
afterAll(() => world?.close());

const photoFile = (photoPath: string) =>
  path.join(world.vault.ctx.config.uploadsDir, photoPath.replace(/^media\//, ''));

async function itemNamed(name: string) {
  return (await remoteItems(world, 'alice')).find((i) => i.beverage.name === name);
}

async function photoUrl(name: string) {
  return world.remote.serveFile(`/media/${name}.jpg`, await jpeg(320, 240), 'image/jpeg');
}

describe('an Update(Note) of a received entry', () => {
  it('changes the entry in the feed, and replaces the photo copy when the photo changed', async () => {
    const entry = remoteEntry({
      name: 'Springbank 10',
      photo: { url: await photoUrl('sb-1'), width: 320, height: 240 },
    });
    await deliver(world, await activities(world).create(entry));
    await settled(world);
    const before = (await itemNamed('Springbank 10'))!;
    const edited = {
      ...entry,
      name: 'Springbank 10 (2024)',
      rating: 5,
      notes: 'Better the second time.',
      updatedAt: new Date('2026-03-02T09:00:00Z'),
      photo: { url: await photoUrl('sb-2'), width: 320, height: 240 },
    };
    await deliver(world, await activities(world).update(edited));
    await settled(world);
    const after = (await itemNamed('Springbank 10 (2024)'))!;
    expect(after).toMatchObject({
      id: before.id,
      beverage: {
        id: before.beverage.id,
        rating: 5,
        notes: 'Better the second time.',
        updatedAt: '2026-03-02T09:00:00.000Z',
      },
    });
    expect(after.beverage.photoPath).toMatch(/^media\/[a-f0-9]{32}\.jpg$/);
    expect(after.beverage.photoPath).not.toBe(before.beverage.photoPath);
    expect(fs.existsSync(photoFile(before.beverage.photoPath!))).toBe(false);
    expect(fs.existsSync(photoFile(after.beverage.photoPath!))).toBe(true);
  });

  it('keeps the photo copy when the photo URL is the same, and drops it when the photo is gone', async () => {
    const photo = { url: await photoUrl('hz-1'), width: 320, height: 240 };
    const entry = remoteEntry({ name: 'Hazelburn 10', photo });
    await deliver(world, await activities(world).create(entry));
    await settled(world);
    const first = (await itemNamed('Hazelburn 10'))!.beverage.photoPath!;
    const later = (ms: number) => new Date(Date.parse('2026-03-01T18:30:00Z') + ms);
    await deliver(
      world,
      await activities(world).update({ ...entry, rating: 2, updatedAt: later(1000) }),
    );
    await settled(world);
    expect((await itemNamed('Hazelburn 10'))!.beverage).toMatchObject({
      rating: 2,
      photoPath: first,
    });
    await deliver(
      world,
      await activities(world).update({ ...entry, photo: null, updatedAt: later(2000) }),
    );
    await settled(world);
    expect((await itemNamed('Hazelburn 10'))!.beverage.photoPath).toBeNull();
    expect(fs.existsSync(photoFile(first))).toBe(false);
  });

  it('changes nothing when replayed, when older than what is stored, or when it comes from another actor', async () => {
    const entry = remoteEntry({ name: 'Kilkerran 12' });
    await deliver(world, await activities(world).create(entry));
    const newer = { ...entry, rating: 5, updatedAt: new Date('2026-03-05T00:00:00Z') };
    await deliver(world, await activities(world).update(newer));
    await settled(world);
    // Replayed at another inbox (Fedify's own idempotence is per inbox), and an older edit.
    await deliver(
      world,
      await activities(world).update(newer),
      'barrel',
      `${world.vault.url}/users/alice/inbox`,
    );
    const older = { ...entry, rating: 1, updatedAt: new Date('2026-03-03T00:00:00Z') };
    await deliver(world, await activities(world).update(older));
    // cooper's own Update of barrel's Note: signed by cooper, so its actor is cooper.
    const hijack = await activities(world, { username: 'cooper', fullName: 'Cooper' }).update({
      ...newer,
      rating: 0,
      updatedAt: new Date('2026-04-01T00:00:00Z'),
    });
    const object = hijack.object as Record<string, unknown>;
    hijack.object = { ...object, id: `${world.remote.origin}/users/barrel/entries/${entry.id}` };
    await deliver(world, hijack, 'cooper');
    await settled(world);
    expect((await itemNamed('Kilkerran 12'))!.beverage).toMatchObject({
      rating: 5,
      updatedAt: '2026-03-05T00:00:00.000Z',
    });
  });
});

describe('a Delete of a received entry', () => {
  it('removes the entry, its feed items and its photo copy', async () => {
    const entry = remoteEntry({
      name: 'Glen Scotia 15',
      photo: { url: await photoUrl('gs-1'), width: 320, height: 240 },
    });
    await deliver(world, await activities(world).create(entry));
    await settled(world);
    const { photoPath } = (await itemNamed('Glen Scotia 15'))!.beverage;
    const entries = await count(world, 'remote_entries');
    const items = await count(world, 'feed_items');
    await deliver(world, await activities(world).delete(entry));
    await settled(world);
    expect(await itemNamed('Glen Scotia 15')).toBeUndefined();
    expect([await count(world, 'remote_entries'), await count(world, 'feed_items')]).toEqual([
      entries - 1,
      items - 1,
    ]);
    expect(fs.existsSync(photoFile(photoPath!))).toBe(false);
  });

  it('takes the Note’s id as its object as well as a Tombstone', async () => {
    const entry = remoteEntry({ name: 'Longrow Peated' });
    await deliver(world, await activities(world).create(entry));
    await settled(world);
    const deletion = await activities(world).delete(entry);
    deletion.object = (deletion.object as Record<string, unknown>).id;
    await deliver(world, deletion);
    await settled(world);
    expect(await itemNamed('Longrow Peated')).toBeUndefined();
  });

  it('is ignored when it comes from another actor than the entry’s', async () => {
    const entry = remoteEntry({ name: 'Campbeltown Loch' });
    await deliver(world, await activities(world).create(entry));
    await settled(world);
    const deletion = await activities(world, { username: 'cooper', fullName: 'Cooper' }).delete(
      entry,
    );
    deletion.object = `${world.remote.origin}/users/barrel/entries/${entry.id}`;
    await deliver(world, deletion, 'cooper');
    await settled(world);
    expect(await itemNamed('Campbeltown Loch')).toBeDefined();
  });
});
