import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { beverageResponseSchema } from '../../contract/beverages.ts';
import { activityPageSchema } from '../../contract/social.ts';
import type { IncomingEntry } from '../../src/remote-entries/service.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Remote entries through the API: how the feed shows them and 'Add to vault'
 * (POST /api/activity/remote-entries/{id}/clone). The entries are stored through the service the
 * inbox uses (the inbox itself is tested in test/federation/inbox-entries-*.test.ts).
 */

const ACTOR = 'https://other-vault.example/users/bob';
let vault: TestVault;
let alice: string;
let carol: string;
let ids: Record<'alice' | 'carol', number>;
let actorId: number;
let photo: Buffer;
let n = 0;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const c = await vault.createUser({ username: 'carol', fullName: 'Carol Cask' });
  ids = { alice: a.id, carol: c.id };
  alice = await vault.login('alice', a.password);
  carol = await vault.login('carol', c.password);
  const db = vault.ctx.database.database;
  const t = Date.now();
  actorId = (await db
    .prepare(
      `INSERT INTO actors (kind, uri, inbox_url, display_name, handle, created_at, updated_at)
       VALUES ('remote', ?, ?, 'Bob <i>Brewer</i>', '@bob@other-vault.example', ?, ?) RETURNING id`,
    )
    .pluck()
    .get(ACTOR, `${ACTOR}/inbox`, t, t)) as number;
  await db
    .prepare(
      `INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)`,
    )
    .run(await vault.ctx.actors.localActorId(a.id), actorId, t);
  photo = await jpeg(400, 300);
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec('DELETE FROM remote_entries; DELETE FROM beverages;');
});

function incoming(changes: Partial<IncomingEntry> = {}): IncomingEntry {
  n++;
  return {
    noteUri: `${ACTOR}/entries/${n}`,
    type: 'WINE',
    name: 'Château Musar 2015',
    subtype: 'Syrah',
    makerName: 'Château Musar',
    rating: 5,
    notes: 'Spice, <script>alert(1)</script> and cherries.',
    status: 'TRIED',
    publishedAt: new Date('2026-02-01T10:00:00Z'),
    updatedAt: new Date('2026-02-01T10:00:00Z'),
    photoUrl: 'https://other-vault.example/media/shared/abc.jpg',
    ...changes,
  };
}

/** Stores a received entry as the inbox does, and returns its id as the feed shows it. */
async function receive(changes: Partial<IncomingEntry> = {}, bytes: Buffer | null = photo) {
  const entry = incoming(changes);
  expect(await vault.ctx.remoteEntries.store(actorId, entry, bytes ?? undefined)).toBe('stored');
  return (await vault.ctx.remoteEntries.find(entry.noteUri))!;
}

async function feed(cookie: string) {
  const res = await vault.request('/api/activity', { cookie });
  expect(res.status).toBe(200);
  return activityPageSchema.parse(await json(res));
}

const clone = (id: number, cookie: string, body?: unknown) =>
  body === undefined
    ? vault.request(`/api/activity/remote-entries/${id}/clone`, { method: 'POST', cookie })
    : vault.postJson(`/api/activity/remote-entries/${id}/clone`, body, cookie);

const file = (photoPath: string) =>
  path.join(vault.config.uploadsDir, photoPath.replace(/^media\//, ''));

describe('remote entries in the feed', () => {
  it('are shown to the followers of their actor with the actor’s handle and the entry’s fields, text as it came', async () => {
    const stored = await receive();
    const page = await feed(alice);
    expect(page.activities).toEqual([
      {
        id: expect.any(Number),
        kind: 'remote',
        actor: {
          fullName: 'Bob <i>Brewer</i>',
          handle: '@bob@other-vault.example',
          actorUri: ACTOR,
        },
        beverage: {
          id: stored.id,
          type: 'WINE',
          name: 'Château Musar 2015',
          subtype: 'Syrah',
          makerName: 'Château Musar',
          rating: 5,
          notes: 'Spice, <script>alert(1)</script> and cherries.',
          status: 'TRIED',
          tasting: null,
          photoPath: stored.photoPath,
          noteUri: stored.noteUri,
          createdAt: '2026-02-01T10:00:00.000Z',
          updatedAt: '2026-02-01T10:00:00.000Z',
          cheerCount: 0,
          cheeredByMe: false,
          commentCount: 0,
        },
        createdAt: expect.any(String),
      },
    ]);
    expect((await feed(carol)).activities).toEqual([]);
  });
});

describe('POST /api/activity/remote-entries/{id}/clone', () => {
  it('copies the entry into the caller’s to-try list, with the photo as a new file of theirs', async () => {
    const stored = await receive();
    const res = await clone(stored.id, alice);
    expect(res.status, await res.clone().text()).toBe(201);
    const { beverage } = beverageResponseSchema.parse(await json(res));
    expect(beverage).toMatchObject({
      userId: ids.alice,
      isOwner: true,
      type: 'WINE',
      name: 'Château Musar 2015',
      subtype: 'Syrah',
      makerName: 'Château Musar',
      status: 'TO_TRY',
      rating: 0,
      notes: 'Spice, <script>alert(1)</script> and cherries.',
      inCellar: false,
    });
    expect(beverage.photoPath).toMatch(/^media\/[a-f0-9]{32}\.jpg$/);
    expect(beverage.photoPath).not.toBe(stored.photoPath);
    // The copy outlives the remote entry (a Delete from its actor removes only the remote one).
    await vault.ctx.remoteEntries.remove(stored);
    expect(fs.existsSync(file(stored.photoPath!))).toBe(false);
    expect(fs.existsSync(file(beverage.photoPath!))).toBe(true);
    const mine = await vault.request(`/api/beverages/${beverage.id}`, { cookie: alice });
    expect(mine.status).toBe(200);
    expect((await vault.request(`/${beverage.photoPath!}`, { cookie: alice })).status).toBe(200);
  });

  it('copies a tried entry with its rating when asked for the tried list', async () => {
    const stored = await receive({ rating: 3 }, null);
    const res = await clone(stored.id, alice, { status: 'TRIED' });
    expect(res.status).toBe(201);
    const { beverage } = beverageResponseSchema.parse(await json(res));
    expect([beverage.status, beverage.rating, beverage.photoPath]).toEqual(['TRIED', 3, null]);
  });

  it('is a 404 for an entry that is not in the caller’s feed, or does not exist', async () => {
    const stored = await receive();
    const before = vault.ctx.database.database.prepare('SELECT count(*) FROM beverages').pluck();
    expect(await json(await clone(stored.id, carol))).toEqual({ message: 'Entry not found' });
    expect((await clone(stored.id + 1000, alice)).status).toBe(404);
    expect(await before.get()).toBe(0);
  });

  it('refuses a body other than an optional status, and anonymous callers', async () => {
    const stored = await receive();
    const bad = await clone(stored.id, alice, { status: 'MAYBE' });
    expect(bad.status).toBe(400);
    expect(await json(bad)).toEqual({ message: 'Status must be TRIED or TO_TRY' });
    expect((await clone(stored.id, alice, { status: 'TRIED', name: 'x' })).status).toBe(400);
    expect(
      (
        await vault.request('/api/activity/remote-entries/0/clone', {
          method: 'POST',
          cookie: alice,
        })
      ).status,
    ).toBe(400);
    const anonymous = await vault.request(`/api/activity/remote-entries/${stored.id}/clone`, {
      method: 'POST',
    });
    expect(anonymous.status).toBe(401);
  });
});

describe('forgetting a remote actor’s entries', () => {
  it('keeps them while someone follows the actor, and removes them with their photos after', async () => {
    const stored = await receive();
    expect(await vault.ctx.remoteEntries.forgetActor(ACTOR)).toBe(0);
    expect(fs.existsSync(file(stored.photoPath!))).toBe(true);
    const db = vault.ctx.database.database;
    await db.prepare("UPDATE follows SET state = 'PENDING' WHERE followed_id = ?").run(actorId);
    try {
      expect(await vault.ctx.remoteEntries.forgetActor(ACTOR)).toBe(1);
      expect(await vault.ctx.remoteEntries.find(stored.noteUri)).toBeUndefined();
      expect(fs.existsSync(file(stored.photoPath!))).toBe(false);
    } finally {
      await db.prepare("UPDATE follows SET state = 'ACCEPTED' WHERE followed_id = ?").run(actorId);
    }
    const again = await receive();
    expect(await vault.ctx.remoteEntries.allPhotoPaths()).toEqual([again.photoPath]);
    expect(await vault.ctx.remoteEntries.forgetActor(ACTOR, { always: true })).toBe(1);
    expect(fs.existsSync(file(again.photoPath!))).toBe(false);
  });
});
