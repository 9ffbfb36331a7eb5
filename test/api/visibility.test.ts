import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beveragePageSchema,
  beverageResponseSchema,
  type Beverage,
} from '../../contract/beverages.ts';
import type { Role } from '../../src/db/schema/index.ts';
import { createVisibilityPolicy } from '../../src/visibility/policy.ts';
import { jpeg } from '../helpers/images.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// Who sees what (docs/social.md, "Visibility"): src/visibility/policy.ts, and the routes that
// ask it: another user's entry list, GET of one entry, clone and the stored photos.

let vault: TestVault;

interface Person {
  id: number;
  role: Role;
  cookie: string;
}
let alice: Person;
let bob: Person;
let admin: Person;

async function person(username: string, role: Role = 'USER'): Promise<Person> {
  const row = await vault.createUser({ username, role, fullName: `${username} Fullname` });
  return { id: row.id, role, cookie: await vault.login(username, row.password) };
}

beforeAll(async () => {
  vault = createTestVault();
  alice = await person('alice');
  bob = await person('bob');
  admin = await person('root_admin', 'ADMIN');
});
afterAll(() => vault.close());

async function create(who: Person, name: string, photo?: Uint8Array): Promise<Beverage> {
  const body = new FormData();
  body.append('name', name);
  body.append('type', 'WINE');
  if (photo) body.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }));
  const res = await vault.request('/api/beverages', { method: 'POST', body, cookie: who.cookie });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return beverageResponseSchema.parse(await res.json()).beverage;
}

const get = (path: string, who?: Person) => vault.request(path, who ? { cookie: who.cookie } : {});

describe('the visibility policy', () => {
  // Entry 1 of user 10 is shared with users 11 and 15; users 14 and 15 follow user 10; one of
  // users 10 and 15 blocked the other.
  const policy = createVisibilityPolicy({
    blockedBetween: async (one, other) => [one, other].sort().join() === '10,15',
    isShareRecipient: async (entryId, userId) => entryId === 1 && (userId === 11 || userId === 15),
    followsOwner: async (userId, ownerId) => (userId === 14 || userId === 15) && ownerId === 10,
    sharedByOwnerWith: async (ownerId, userId) =>
      ownerId === 10 && (userId === 11 || userId === 15) ? [1] : [],
    photoOwner: async (storedPath) =>
      storedPath === 'media/one.jpg'
        ? { kind: 'entry', entry: { id: 1, userId: 10, visibility: 'PRIVATE' } }
        : null,
  });
  const entry = { id: 1, userId: 10, visibility: 'MEMBERS' } as const;
  const owner = { id: 10, role: 'USER' as const };
  const member = { id: 13, role: 'USER' as const };
  const recipient = { id: 11, role: 'USER' as const };
  const follower = { id: 14, role: 'USER' as const };
  const adminViewer = { id: 12, role: 'ADMIN' as const };

  it('lets the owner, admins and every signed-in user see a MEMBERS entry, and no anonymous request', async () => {
    expect(await policy.canSee(owner, entry)).toBe(true);
    expect(await policy.canSee(adminViewer, entry)).toBe(true);
    expect(await policy.canSee(member, entry)).toBe(true);
    expect(await policy.canSee(null, entry)).toBe(false);
    expect(policy.canSeeAllOf(member, 10)).toBe(false);
    expect(policy.canSeeAllOf(adminViewer, 10)).toBe(true);
    expect(policy.canSeeAllOf(null, 10)).toBe(false);
  });

  it('keeps a FOLLOWERS entry for followers and a PRIVATE one for the owner, admins and recipients', async () => {
    const followers = { ...entry, id: 2, visibility: 'FOLLOWERS' } as const;
    const secret = { ...entry, visibility: 'PRIVATE' } as const;
    expect(await policy.canSee(follower, followers)).toBe(true);
    expect(await policy.canSee(member, followers)).toBe(false);
    expect(await policy.canSee(recipient, secret)).toBe(true);
    expect(await policy.canSee(follower, secret)).toBe(false);
    expect(await policy.canSee(adminViewer, secret)).toBe(true);
    expect(await policy.scopeOf(follower, 10)).toEqual({
      visibilities: ['MEMBERS', 'FOLLOWERS'],
      sharedIds: [],
    });
    expect(await policy.scopeOf(recipient, 10)).toEqual({
      visibilities: ['MEMBERS'],
      sharedIds: [1],
    });
    expect(await policy.scopeOf(owner, 10)).toBe('all');
    expect(await policy.scopeOf(null, 10)).toBeNull();
  });

  it('hides every entry of one user from another when one of them blocked the other, admins aside', async () => {
    const blocked = { id: 15, role: 'USER' as const };
    for (const visibility of ['MEMBERS', 'FOLLOWERS', 'PRIVATE'] as const) {
      expect(await policy.canSee(blocked, { ...entry, visibility })).toBe(false);
    }
    expect(await policy.scopeOf(blocked, 10)).toBeNull();
    expect(await policy.canSee(owner, { id: 9, userId: 15, visibility: 'MEMBERS' })).toBe(false);
    expect(await policy.scopeOf(owner, 15)).toBeNull();
    expect(await policy.canSee(member, { id: 9, userId: 15, visibility: 'MEMBERS' })).toBe(true);
    expect(await policy.canSee(adminViewer, { id: 9, userId: 15, visibility: 'MEMBERS' })).toBe(
      true,
    );
    expect(await policy.canSeePhoto(blocked, 'media/one.jpg')).toBe(false);
  });

  it('shows whom an entry is shared with to its owner and admins only', () => {
    expect(policy.canSeeSharesOf(owner, 10)).toBe(true);
    expect(policy.canSeeSharesOf(adminViewer, 10)).toBe(true);
    expect(policy.canSeeSharesOf(member, 10)).toBe(false);
    expect(policy.canSeeSharesOf(null, 10)).toBe(false);
  });

  it('judges a photo by the entry it belongs to, and refuses one that belongs to nothing', async () => {
    expect(await policy.canSeePhoto(null, 'media/avatars/abc.jpg')).toBe(true);
    expect(await policy.canSeePhoto(null, 'media/one.jpg')).toBe(false);
    expect(await policy.canSeePhoto(recipient, 'media/one.jpg')).toBe(true);
    expect(await policy.canSeePhoto(member, 'media/one.jpg')).toBe(false);
    expect(await policy.canSeePhoto(adminViewer, 'media/one.jpg')).toBe(true);
    expect(await policy.canSeePhoto(recipient, 'media/orphan.jpg')).toBe(false);
  });
});

describe('one entry', () => {
  it('is visible to the owner, another user and an admin, and not to anonymous requests', async () => {
    const entry = await create(alice, 'Seen by all');
    for (const [who, isOwner] of [
      [alice, true],
      [bob, false],
      [admin, false],
    ] as const) {
      const res = await get(`/api/beverages/${entry.id}`, who);
      expect(res.status).toBe(200);
      const { beverage } = beverageResponseSchema.parse(await res.json());
      expect(beverage).toMatchObject({ id: entry.id, name: 'Seen by all', isOwner });
    }
    const anonymous = await get(`/api/beverages/${entry.id}`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'You need to sign in first.' });
  });

  it('answers 404 for an unknown entry and 400 for a malformed id', async () => {
    const missing = await get('/api/beverages/999999', alice);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Beverage not found' });
    expect((await get('/api/beverages/abc', alice)).status).toBe(400);
  });

  it('lists whom it is shared with to the owner and admins, and nobody else', async () => {
    const entry = await create(alice, 'Shared with bob');
    const res = await vault.postJson(
      `/api/beverages/${entry.id}/share`,
      { userId: bob.id },
      alice.cookie,
    );
    expect(res.status).toBe(200);
    const sharedWith = async (who: Person) =>
      beverageResponseSchema.parse(await (await get(`/api/beverages/${entry.id}`, who)).json())
        .beverage.sharedWith;
    expect((await sharedWith(alice)).map((u) => u.id)).toEqual([bob.id]);
    expect((await sharedWith(admin)).map((u) => u.id)).toEqual([bob.id]);
    expect(await sharedWith(bob)).toEqual([]);
  });
});

describe('another user’s entry list', () => {
  it('shows their entries read-only to any signed-in user', async () => {
    const entry = await create(alice, 'On the profile');
    for (const who of [bob, admin]) {
      const res = await get(`/api/beverages?userId=${alice.id}`, who);
      expect(res.status).toBe(200);
      const page = beveragePageSchema.parse(await res.json());
      expect(page.beverages.find((b) => b.id === entry.id)).toMatchObject({
        isOwner: false,
        sharedWithCurrentUser: false,
        ownerName: 'alice Fullname',
      });
      expect(page.beverages.every((b) => b.userId === alice.id)).toBe(true);
    }
    expect((await get(`/api/beverages?userId=${alice.id}`)).status).toBe(401);
    expect((await get('/api/beverages?userId=999999', bob)).status).toBe(404);
  });

  it('does not mix in the entries shared with that user', async () => {
    const entry = await create(bob, 'Bob shares with Alice');
    const res = await vault.postJson(
      `/api/beverages/${entry.id}/share`,
      { userId: alice.id },
      bob.cookie,
    );
    const shareId = beverageResponseSchema.parse(await res.json()).beverage.sharedWith[0]!.shareId;
    await vault.ctx.shares.accept(alice, shareId, 'TRIED');
    const mine = beveragePageSchema.parse(await (await get('/api/beverages', alice)).json());
    expect(mine.beverages.map((b) => b.id)).toContain(entry.id);
    const page = beveragePageSchema.parse(
      await (await get(`/api/beverages?userId=${alice.id}`, admin)).json(),
    );
    expect(page.beverages.map((b) => b.id)).not.toContain(entry.id);
  });
});

describe('cloning', () => {
  it('copies any entry the caller can see into their own vault, to-try by default', async () => {
    const entry = await create(alice, 'Clone me');
    const res = await vault.request(`/api/beverages/${entry.id}/clone`, {
      method: 'POST',
      cookie: bob.cookie,
    });
    expect(res.status).toBe(201);
    const { beverage } = beverageResponseSchema.parse(await res.json());
    expect(beverage).toMatchObject({
      name: 'Clone me',
      userId: bob.id,
      isOwner: true,
      status: 'TO_TRY',
      rating: 0,
      sharedWith: [],
    });
    expect(beverage.id).not.toBe(entry.id);
  });

  it('refuses anonymous requests, unknown entries and bodies other than { status }', async () => {
    const entry = await create(alice, 'Clone rules');
    expect((await vault.postJson(`/api/beverages/${entry.id}/clone`, {})).status).toBe(401);
    expect((await vault.postJson('/api/beverages/999999/clone', {}, bob.cookie)).status).toBe(404);
    const extra = await vault.postJson(
      `/api/beverages/${entry.id}/clone`,
      { status: 'TRIED', name: 'Renamed' },
      bob.cookie,
    );
    expect(extra.status).toBe(400);
    expect(await extra.json()).toEqual({ message: 'Unknown field: name' });
  });
});

describe('stored photos', () => {
  it('serve an entry’s photo to signed-in users who can see the entry, never anonymously', async () => {
    const entry = await create(alice, 'Photographed', await jpeg(64, 64));
    const url = `/${entry.photoPath!}`;
    for (const who of [alice, bob, admin]) {
      const res = await get(url, who);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
    }
    const anonymous = await get(url);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'You need to sign in first.' });
  });

  it('answer 404 for a photo that is not stored', async () => {
    const res = await get('/media/0123456789abcdef0123456789abcdef.jpg', bob);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Image not found' });
  });

  it('serve avatars to anyone', async () => {
    const res = await get('/media/avatars/0123456789abcdef0123456789abcdef.jpg');
    // Public route: an unknown avatar is a 404, never a 401.
    expect(res.status).toBe(404);
  });
});
