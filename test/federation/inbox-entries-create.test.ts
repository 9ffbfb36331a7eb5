import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg } from '../helpers/images.ts';
import {
  activities,
  count,
  deliver,
  feed,
  follow,
  remoteEntry,
  remoteItems,
  settled,
  startWorld,
  type World,
} from './inbox-entries-world.ts';

let world: World;

beforeAll(async () => {
  world = await startWorld(['alice', 'bob', 'carol']);
  await follow(world, 'alice');
  await follow(world, 'bob', world.barrel, 'PENDING');
});
afterAll(() => world?.close());

const photoFile = (photoPath: string) =>
  path.join(world.vault.ctx.config.uploadsDir, photoPath.replace(/^media\//, ''));

describe('a Create(Note) from a followed remote vault actor', () => {
  it('appears in the feed of each local user who follows the actor (ACCEPTED), as a remote item', async () => {
    const entry = remoteEntry({ name: 'Lagavulin 16', notes: 'Peat <b>and</b> smoke.\nLong.' });
    await deliver(world, await activities(world).create(entry));
    await settled(world);
    const [item, ...rest] = await remoteItems(world, 'alice');
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      kind: 'remote',
      actor: {
        fullName: 'Barrel Keeper',
        handle: `@barrel@${world.remote.host}`,
        actorUri: world.barrel,
      },
      beverage: {
        type: 'WHISKEY',
        name: 'Lagavulin 16',
        subtype: 'Scotch',
        makerName: 'Lagavulin',
        rating: 4,
        notes: 'Peat <b>and</b> smoke.\nLong.',
        status: 'TRIED',
        photoPath: null,
        noteUri: `${world.remote.origin}/users/barrel/entries/${entry.id}`,
        createdAt: '2026-03-01T18:30:00.000Z',
      },
    });
    // A pending follow, or none, gets nothing.
    expect(await remoteItems(world, 'bob')).toEqual([]);
    expect(await remoteItems(world, 'carol')).toEqual([]);
  });

  it('keeps its photo as the vault’s own re-encoded copy, without EXIF, for signed-in users only', async () => {
    const original = await jpeg(800, 600, { gps: true });
    const url = world.remote.serveFile('/media/bottle-1.jpg', original, 'image/jpeg');
    const entry = remoteEntry({ name: 'Ardbeg 10', photo: { url, width: 800, height: 600 } });
    await deliver(world, await activities(world).create(entry));
    await settled(world);
    const item = (await remoteItems(world, 'alice')).find((i) => i.beverage.name === 'Ardbeg 10');
    const photoPath = item!.beverage.photoPath!;
    expect(photoPath).toMatch(/^media\/[a-f0-9]{32}\.jpg$/);
    const res = await fetch(`${world.vault.url}/${photoPath}`, {
      headers: { cookie: world.users.alice!.cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    const served = Buffer.from(await res.arrayBuffer());
    expect(served.equals(original)).toBe(false);
    const meta = await sharp(served).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual([
      'jpeg',
      800,
      600,
      undefined,
    ]);
    expect((await fetch(`${world.vault.url}/${photoPath}`)).status).toBe(401);
    expect(fs.existsSync(photoFile(photoPath))).toBe(true);
  });

  it('changes nothing when the same Create arrives again, at the shared inbox or a personal one', async () => {
    const entry = remoteEntry({ name: 'Talisker 10' });
    const create = await activities(world).create(entry);
    await deliver(world, create);
    await settled(world);
    const before = [
      await count(world, 'remote_entries'),
      await count(world, 'feed_items'),
      await count(world, 'activities'),
    ];
    await deliver(world, create);
    await deliver(world, create, 'barrel', `${world.vault.url}/users/alice/inbox`);
    await deliver(world, create, 'barrel', `${world.vault.url}/users/carol/inbox`);
    await settled(world);
    expect([
      await count(world, 'remote_entries'),
      await count(world, 'feed_items'),
      await count(world, 'activities'),
    ]).toEqual(before);
    const names = (await remoteItems(world, 'alice')).map((i) => i.beverage.name);
    expect(names.filter((n) => n === 'Talisker 10')).toHaveLength(1);
  });

  it('is listed with local items newest first, and pages with the same cursor', async () => {
    // alice follows a local user too: both kinds in one feed.
    const dave = await world.vault.createUser({ username: 'dave', password: 'dave-password' });
    const db = world.vault.ctx.database.database;
    const t = Date.now();
    await db
      .prepare(
        'INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, ?, ?)',
      )
      .run(
        await world.vault.ctx.actors.localActorId(world.users.alice!.id),
        await world.vault.ctx.actors.localActorId(dave.id),
        'ACCEPTED',
        t,
      );
    await world.vault.ctx.beverages.create(
      { id: dave.id, role: 'USER' },
      { type: 'BEER', name: 'Local pour' },
    );
    await world.vault.ctx.outbox.idle();
    await deliver(world, await activities(world).create(remoteEntry({ name: 'Remote pour' })));
    await settled(world);
    const all = (await feed(world, 'alice')).activities;
    expect(all.slice(0, 2).map((i) => [i.kind, i.beverage.name])).toEqual([
      ['remote', 'Remote pour'],
      ['local', 'Local pour'],
    ]);
    const first = await feed(world, 'alice', '?limit=1');
    const second = await feed(world, 'alice', `?limit=1&cursor=${first.nextCursor!}`);
    expect([...first.activities, ...second.activities].map((i) => i.beverage.name)).toEqual([
      'Remote pour',
      'Local pour',
    ]);
  });
});
