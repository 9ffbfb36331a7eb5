import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beveragePageSchema,
  beverageResponseSchema,
  type Beverage,
} from '../../contract/beverages.ts';
import type { Visibility } from '../../contract/enums.ts';
import { activityPageSchema } from '../../contract/social.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { signedInPeople, type SignedInPerson } from '../helpers/signed-in-people.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// Per-entry privacy (src/visibility/policy.ts): who sees a PRIVATE, FOLLOWERS and MEMBERS entry
// through every door: the entry itself, the owner's list, search, the activity feed, the photo.

let vault: TestVault;

type Who = 'owner' | 'follower' | 'member' | 'admin' | 'recipient';
let people: Record<Who, SignedInPerson>;
const entries = {} as Record<Visibility, Beverage>;
const LEVELS: Visibility[] = ['PRIVATE', 'FOLLOWERS', 'MEMBERS'];

const create = (cookie: string, fields: Record<string, string>, photo?: Uint8Array) =>
  vault.logEntry(cookie, fields, photo);

const get = (path: string, who?: Who) =>
  vault.request(path, who ? { cookie: people[who].cookie } : {});

async function listNames(who: Who, query = ''): Promise<string[]> {
  const res = await get(`/api/beverages?userId=${people.owner.id}${query}`, who);
  expect(res.status).toBe(200);
  return beveragePageSchema.parse(await res.json()).beverages.map((b) => b.name);
}

async function feedNames(who: Who): Promise<string[]> {
  await vault.ctx.outbox.idle();
  const res = await get('/api/activity', who);
  expect(res.status).toBe(200);
  return activityPageSchema.parse(await res.json()).activities.map((a) => a.beverage.name);
}

const changeVisibility = (who: Who, body: unknown) =>
  vault.postJson('/api/beverages/visibility', body, people[who].cookie, 'PATCH');

beforeAll(async () => {
  vault = createTestVault();
  people = await signedInPeople(vault, 'p', {
    owner: 'USER',
    follower: 'USER',
    member: 'USER',
    admin: 'ADMIN',
    recipient: 'USER',
  });
  const follow = await vault.postJson(
    `/api/users/${people.owner.id}/follow`,
    {},
    people.follower.cookie,
  );
  expect(follow.status).toBe(201);
  const photo = await jpeg(64, 48);
  for (const visibility of LEVELS) {
    entries[visibility] = await create(
      people.owner.cookie,
      { name: `${visibility} Islay`, type: 'WHISKEY', visibility },
      photo,
    );
    const share = await vault.postJson(
      `/api/beverages/${entries[visibility].id}/share`,
      { userId: people.recipient.id },
      people.owner.cookie,
    );
    expect(share.status).toBe(200);
  }
});
afterAll(() => vault.close());

/** Who sees an entry of each visibility (besides anonymous requests, which see none). */
const SEES: Record<Who, Visibility[]> = {
  owner: ['PRIVATE', 'FOLLOWERS', 'MEMBERS'],
  admin: ['PRIVATE', 'FOLLOWERS', 'MEMBERS'],
  recipient: ['PRIVATE', 'FOLLOWERS', 'MEMBERS'],
  follower: ['FOLLOWERS', 'MEMBERS'],
  member: ['MEMBERS'],
};
const WHO = Object.keys(SEES) as Who[];
/** The names of the entries `who` sees, newest first (as lists order them). */
const namesSeenBy = (who: Who) => [...SEES[who]].reverse().map((level) => `${level} Islay`);

describe('who sees a PRIVATE, FOLLOWERS and MEMBERS entry', () => {
  it('keeps each entry to its audience when opened by id, and answers 404 to everyone else', async () => {
    for (const who of WHO) {
      for (const level of LEVELS) {
        const res = await get(`/api/beverages/${entries[level].id}`, who);
        expect([who, level, res.status]).toEqual([
          who,
          level,
          SEES[who].includes(level) ? 200 : 404,
        ]);
      }
    }
    for (const level of LEVELS) {
      expect((await get(`/api/beverages/${entries[level].id}`)).status).toBe(401);
    }
  });

  it('lists only the entries the viewer may see, in the owner list and in its search', async () => {
    for (const who of WHO) {
      expect([who, await listNames(who)]).toEqual([who, namesSeenBy(who)]);
      expect([who, await listNames(who, '&q=islay')]).toEqual([who, namesSeenBy(who)]);
      expect([who, await listNames(who, '&type=WHISKEY&limit=1')]).toEqual([
        who,
        namesSeenBy(who).slice(0, 1),
      ]);
    }
    expect((await get(`/api/beverages?userId=${people.owner.id}`)).status).toBe(401);
  });

  it('serves a bottle photo only to those who may see its entry', async () => {
    for (const who of WHO) {
      for (const level of LEVELS) {
        const res = await get(`/${entries[level].photoPath!}`, who);
        expect([who, level, res.status]).toEqual([
          who,
          level,
          SEES[who].includes(level) ? 200 : 404,
        ]);
      }
    }
    expect((await get(`/${entries.MEMBERS.photoPath!}`)).status).toBe(401);
  });

  it('shows followers their followed user’s FOLLOWERS and MEMBERS entries in the feed, never the PRIVATE one', async () => {
    expect(await feedNames('follower')).toEqual(['MEMBERS Islay', 'FOLLOWERS Islay']);
    expect(await feedNames('member')).toEqual([]);
    expect((await get('/api/activity')).status).toBe(401);
  });

  it('refuses to copy an entry the caller may not see, as if it did not exist', async () => {
    const res = await vault.postJson(
      `/api/beverages/${entries.PRIVATE.id}/clone`,
      {},
      people.member.cookie,
    );
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Beverage not found' });
  });

  it('shows the visibility and whether it federates, and never federates a PRIVATE entry', async () => {
    expect(entries.PRIVATE).toMatchObject({ visibility: 'PRIVATE', federated: false });
    expect(entries.FOLLOWERS).toMatchObject({ visibility: 'FOLLOWERS', federated: true });
    const kept = await create(people.owner.cookie, {
      name: 'Kept home',
      type: 'WINE',
      visibility: 'MEMBERS',
      federated: 'false',
    });
    expect(kept).toMatchObject({ visibility: 'MEMBERS', federated: false });
    const forced = await create(people.owner.cookie, {
      name: 'Asked to federate',
      type: 'WINE',
      visibility: 'PRIVATE',
      federated: 'true',
    });
    expect(forced).toMatchObject({ visibility: 'PRIVATE', federated: false });
    for (const entry of [kept, forced]) {
      const res = await vault.request(`/api/beverages/${entry.id}`, {
        method: 'DELETE',
        cookie: people.owner.cookie,
      });
      expect(res.status).toBe(204);
    }
  });
});

describe('changing an entry’s visibility', () => {
  it('takes effect at once in lists, search, the feed and the photo (nothing cached leaks)', async () => {
    const entry = await create(people.owner.cookie, { name: 'Changing Caol Ila', type: 'WHISKEY' });
    expect(await listNames('member')).toContain('Changing Caol Ila');
    expect(await listNames('member', '&q=caol')).toEqual(['Changing Caol Ila']);
    expect(await feedNames('follower')).toContain('Changing Caol Ila');

    const form = new FormData();
    form.append('visibility', 'PRIVATE');
    const res = await vault.request(`/api/beverages/${entry.id}`, {
      method: 'PATCH',
      body: form,
      cookie: people.owner.cookie,
    });
    expect(res.status).toBe(200);
    expect(beverageResponseSchema.parse(await res.json()).beverage).toMatchObject({
      visibility: 'PRIVATE',
      federated: false,
    });
    expect(await listNames('member')).not.toContain('Changing Caol Ila');
    expect(await listNames('member', '&q=caol')).toEqual([]);
    expect(await feedNames('follower')).not.toContain('Changing Caol Ila');
    expect((await get(`/api/beverages/${entry.id}`, 'follower')).status).toBe(404);

    const back = new FormData();
    back.append('visibility', 'FOLLOWERS');
    const restored = await vault.request(`/api/beverages/${entry.id}`, {
      method: 'PATCH',
      body: back,
      cookie: people.owner.cookie,
    });
    expect(beverageResponseSchema.parse(await restored.json()).beverage).toMatchObject({
      visibility: 'FOLLOWERS',
      federated: true,
    });
    expect(await feedNames('follower')).toContain('Changing Caol Ila');
    expect(await listNames('member', '&q=caol')).toEqual([]);
    expect(await listNames('follower', '&q=caol')).toEqual(['Changing Caol Ila']);
  });

  it('changes many of the caller’s entries at once, by ids or all of them', async () => {
    const owner = people.owner.cookie;
    const a = await create(owner, { name: 'Bulk Ale', type: 'BEER' });
    const b = await create(owner, { name: 'Bulk Bock', type: 'BEER' });
    const byIds = await changeVisibility('owner', { visibility: 'PRIVATE', ids: [a.id, b.id] });
    expect(byIds.status).toBe(200);
    expect(await byIds.json()).toEqual({ updated: 2 });
    expect(await listNames('member', '&q=bulk')).toEqual([]);

    const again = await changeVisibility('owner', { visibility: 'PRIVATE', ids: [a.id] });
    expect(await again.json()).toEqual({ updated: 0 });

    const beers = await changeVisibility('owner', { visibility: 'MEMBERS', all: { type: 'BEER' } });
    expect(await beers.json()).toEqual({ updated: 2 });
    expect(await listNames('member', '&q=bulk')).toEqual(['Bulk Bock', 'Bulk Ale']);
    // The whiskies were not touched.
    expect(await listNames('member', '&type=WHISKEY&q=islay')).toEqual(['MEMBERS Islay']);
  });

  it('refuses entries of someone else and changes nothing', async () => {
    const res = await changeVisibility('member', {
      visibility: 'PRIVATE',
      ids: [entries.MEMBERS.id],
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      message: 'Some of these entries are not yours or no longer exist',
    });
    expect((await get(`/api/beverages/${entries.MEMBERS.id}`, 'member')).status).toBe(200);
  });

  it('explains a malformed change', async () => {
    const cases: [unknown, string][] = [
      [{ visibility: 'SECRET', ids: [1] }, 'Visibility must be PRIVATE, FOLLOWERS or MEMBERS'],
      [{ visibility: 'PRIVATE' }, 'Give either ids or all'],
      [{ visibility: 'PRIVATE', ids: [1], all: {} }, 'Give either ids or all'],
      [{ visibility: 'PRIVATE', ids: [] }, 'Choose at least one entry'],
      [{ visibility: 'PRIVATE', ids: ['x'] }, 'ids must be entry ids'],
    ];
    for (const [body, message] of cases) {
      const res = await changeVisibility('owner', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message });
    }
    const anonymous = await vault.postJson(
      '/api/beverages/visibility',
      { visibility: 'PRIVATE', all: {} },
      undefined,
      'PATCH',
    );
    expect(anonymous.status).toBe(401);
  });
});

describe('the default visibility', () => {
  it('is MEMBERS, and a user’s own choice applies to new entries and copies', async () => {
    const me = await get('/api/auth/me', 'member');
    expect((await json(me)).user.defaultVisibility).toBe('MEMBERS');
    const form = new FormData();
    form.append('defaultVisibility', 'PRIVATE');
    const res = await vault.request('/api/users/me', {
      method: 'PATCH',
      body: form,
      cookie: people.member.cookie,
    });
    expect(res.status).toBe(200);
    expect((await json(res)).user.defaultVisibility).toBe('PRIVATE');

    const fresh = await create(people.member.cookie, { name: 'Quiet one', type: 'WINE' });
    expect(fresh).toMatchObject({ visibility: 'PRIVATE', federated: false });
    const chosen = await create(people.member.cookie, {
      name: 'Loud one',
      type: 'WINE',
      visibility: 'MEMBERS',
    });
    expect(chosen.visibility).toBe('MEMBERS');
    const copy = await vault.postJson(
      `/api/beverages/${entries.MEMBERS.id}/clone`,
      {},
      people.member.cookie,
    );
    expect(beverageResponseSchema.parse(await copy.json()).beverage.visibility).toBe('PRIVATE');

    const bad = new FormData();
    bad.append('defaultVisibility', 'EVERYONE');
    const refused = await vault.request('/api/users/me', {
      method: 'PATCH',
      body: bad,
      cookie: people.member.cookie,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      message: 'Visibility must be PRIVATE, FOLLOWERS or MEMBERS',
    });
  });

  it('is not shown on another user’s public profile', async () => {
    const res = await get('/api/users/profiles/p_owner', 'member');
    expect(res.status).toBe(200);
    expect((await json(res)).user).not.toHaveProperty('defaultVisibility');
  });
});
