import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { beveragePageSchema } from '../../contract/beverages.ts';
import {
  activityPageSchema,
  followerSchema,
  followingItemSchema,
  notificationSchema,
  respondResultSchema,
  userSearchResultSchema,
} from '../../contract/social.ts';
import { publicProfileSchema, userSchema } from '../../contract/users.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// Approving followers (src/follows/requests.ts) and removing a local follower, through the API.

let vault: TestVault;
let serial = 0;

interface Person {
  id: number;
  username: string;
  cookie: string;
}

beforeAll(() => {
  vault = createTestVault();
});
afterAll(() => vault.close());

async function person(prefix: string): Promise<Person> {
  const username = `${prefix}${++serial}`;
  const user = await vault.createUser({ username });
  return { id: user.id, username, cookie: await vault.login(username, user.password) };
}

const get = (path: string, who: Person) => vault.request(path, { cookie: who.cookie });

async function setApproval(who: Person, value: string) {
  const body = new FormData();
  body.append('approveFollowers', value);
  return vault.request('/api/users/me', { method: 'PATCH', body, cookie: who.cookie });
}

/** Someone who approves followers. */
async function approver(): Promise<Person> {
  const who = await person('locked');
  expect((await setApproval(who, 'true')).status).toBe(200);
  return who;
}

const follow = (target: Person, who: Person) =>
  vault.postJson(`/api/users/${target.id}/follow`, {}, who.cookie);

async function notificationsOf(who: Person) {
  await vault.ctx.outbox.idle();
  const res = await get('/api/notifications', who);
  expect(res.status).toBe(200);
  return z.object({ notifications: z.array(notificationSchema) }).parse(await json(res))
    .notifications;
}

async function requestFrom(owner: Person, requester: Person) {
  const found = (await notificationsOf(owner)).filter(
    (n) => n.type === 'FOLLOW_REQUEST' && n.sender.username === requester.username,
  );
  expect(found).toHaveLength(1);
  return found[0]!;
}

const respond = (id: number, action: 'ACCEPT' | 'DECLINE', who: Person) =>
  vault.postJson(`/api/notifications/${id}/respond`, { action }, who.cookie);

async function followingOf(who: Person) {
  const res = await get('/api/users/following', who);
  expect(res.status).toBe(200);
  return z.object({ following: z.array(followingItemSchema) }).parse(await json(res)).following;
}

async function followerNames(who: Person) {
  const res = await get('/api/users/followers', who);
  expect(res.status).toBe(200);
  return z
    .object({ followers: z.array(followerSchema) })
    .parse(await json(res))
    .followers.map((f) => (f.kind === 'local' ? f.user.username : f.actorUri));
}

async function searchMark(who: Person, target: Person) {
  const res = await get(`/api/users/search?q=${target.username}`, who);
  const users = z.object({ users: z.array(userSearchResultSchema) }).parse(await json(res)).users;
  const found = users.find((u) => u.id === target.id)!;
  return { following: found.following, requested: found.requested };
}

/** The names of `owner`'s entries that `who` sees in the owner's list. */
async function seenEntries(owner: Person, who: Person) {
  const res = await get(`/api/beverages?userId=${owner.id}`, who);
  expect(res.status).toBe(200);
  return beveragePageSchema.parse(await json(res)).beverages.map((b) => b.name);
}

async function feedOf(who: Person) {
  await vault.ctx.outbox.idle();
  const res = await get('/api/activity', who);
  expect(res.status).toBe(200);
  return activityPageSchema.parse(await json(res)).activities.map((a) => a.beverage.name);
}

const log = (owner: Person, name: string, visibility: string) =>
  vault.logEntry(owner.cookie, { name, type: 'WHISKEY', visibility });

describe('the approveFollowers setting', () => {
  it('is off by default, set with PATCH /api/users/me, and shown to the user and on their profile', async () => {
    const who = await person('setting');
    const other = await person('viewer');
    const me = userSchema.parse((await json(await get('/api/auth/me', who))).user);
    expect(me.approveFollowers).toBe(false);

    const on = await setApproval(who, 'true');
    expect(on.status).toBe(200);
    expect(userSchema.parse((await json(on)).user).approveFollowers).toBe(true);
    const profile = await get(`/api/users/profiles/${who.username}`, other);
    expect(publicProfileSchema.parse((await json(profile)).user).approveFollowers).toBe(true);

    const off = await setApproval(who, 'false');
    expect(userSchema.parse((await json(off)).user).approveFollowers).toBe(false);
  });

  it('refuses a value other than true or false with 400, changing nothing', async () => {
    const who = await approver();
    const res = await setApproval(who, 'yes');
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'approveFollowers must be true or false' });
    expect((await vault.ctx.users.findById(who.id))?.approveFollowers).toBe(true);
  });
});

describe('a follow of a user who approves followers', () => {
  it('is a request: PENDING, marked requested for the asker, a FOLLOW_REQUEST for the user, no follower yet', async () => {
    const owner = await approver();
    const asker = await person('asker');
    const res = await follow(owner, asker);
    expect(res.status).toBe(201);
    const { follow: item } = z.object({ follow: followingItemSchema }).parse(await json(res));
    expect(item.state).toBe('PENDING');
    expect(await followingOf(asker)).toEqual([item]);
    expect(await searchMark(asker, owner)).toEqual({ following: false, requested: true });

    const request = await requestFrom(owner, asker);
    expect(request.status).toBe('PENDING');
    expect((await notificationsOf(owner)).map((n) => n.type)).toEqual(['FOLLOW_REQUEST']);
    expect(await followerNames(owner)).toEqual([]);

    const again = await follow(owner, asker);
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({
      message: `You already asked to follow ${owner.username}.`,
    });
  });

  it('shows nothing that needs following until accepted, then the entries and later ones in the feed', async () => {
    const owner = await approver();
    const asker = await person('asker');
    await log(owner, 'Followers dram', 'FOLLOWERS');
    await log(owner, 'Members dram', 'MEMBERS');
    expect((await follow(owner, asker)).status).toBe(201);
    await log(owner, 'Logged while pending', 'FOLLOWERS');
    expect(await seenEntries(owner, asker)).toEqual(['Members dram']);
    expect(await feedOf(asker)).toEqual([]);

    const res = await respond((await requestFrom(owner, asker)).id, 'ACCEPT', owner);
    expect(res.status).toBe(200);
    expect(respondResultSchema.parse(await json(res)).notification.status).toBe('ACCEPTED');
    expect((await followingOf(asker)).map((f) => f.state)).toEqual(['ACCEPTED']);
    expect(await searchMark(asker, owner)).toEqual({ following: true, requested: false });
    expect(await followerNames(owner)).toEqual([asker.username]);
    expect((await seenEntries(owner, asker)).sort()).toEqual([
      'Followers dram',
      'Logged while pending',
      'Members dram',
    ]);
    await log(owner, 'After accepting', 'FOLLOWERS');
    expect(await feedOf(asker)).toEqual(['After accepting']);
  });

  it('is deleted when declined: the asker sees nothing and may ask again', async () => {
    const owner = await approver();
    const asker = await person('asker');
    await log(owner, 'Kept for followers', 'FOLLOWERS');
    expect((await follow(owner, asker)).status).toBe(201);
    const res = await respond((await requestFrom(owner, asker)).id, 'DECLINE', owner);
    expect(res.status).toBe(200);
    expect(respondResultSchema.parse(await json(res)).notification.status).toBe('DECLINED');
    expect(await followingOf(asker)).toEqual([]);
    expect(await searchMark(asker, owner)).toEqual({ following: false, requested: false });
    expect(await seenEntries(owner, asker)).toEqual([]);
    expect(await followerNames(owner)).toEqual([]);
    expect((await follow(owner, asker)).status).toBe(201);
  });

  it('can be taken back by the asker: the request and its notification are gone', async () => {
    const owner = await approver();
    const asker = await person('asker');
    expect((await follow(owner, asker)).status).toBe(201);
    const request = await requestFrom(owner, asker);
    const cancel = await vault.request(`/api/users/${owner.id}/follow`, {
      method: 'DELETE',
      cookie: asker.cookie,
    });
    expect(cancel.status).toBe(204);
    expect(await notificationsOf(owner)).toEqual([]);
    expect(await followingOf(asker)).toEqual([]);
    expect((await respond(request.id, 'ACCEPT', owner)).status).toBe(404);
  });

  it('is answered without a status: one sent is refused with 400, changing nothing', async () => {
    const owner = await approver();
    const asker = await person('asker');
    expect((await follow(owner, asker)).status).toBe(201);
    const request = await requestFrom(owner, asker);
    const res = await vault.postJson(
      `/api/notifications/${request.id}/respond`,
      { action: 'ACCEPT', status: 'TRIED' },
      owner.cookie,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'A follow request is answered without a status.' });
    expect((await followingOf(asker)).map((f) => f.state)).toEqual(['PENDING']);
  });

  it('is accepted at once when the setting is off; turning it on later keeps existing followers', async () => {
    const owner = await person('open');
    const asker = await person('asker');
    const res = await follow(owner, asker);
    expect(z.object({ follow: followingItemSchema }).parse(await json(res)).follow.state).toBe(
      'ACCEPTED',
    );
    expect((await notificationsOf(owner)).map((n) => n.type)).toEqual(['FOLLOW_INVITE']);
    expect((await setApproval(owner, 'true')).status).toBe(200);
    expect(await followerNames(owner)).toEqual([asker.username]);
  });
});

describe('turning approveFollowers off', () => {
  it('accepts every request waiting, as Mastodon does, and marks their notifications accepted', async () => {
    const owner = await approver();
    const first = await person('asker');
    const second = await person('asker');
    expect((await follow(owner, first)).status).toBe(201);
    expect((await follow(owner, second)).status).toBe(201);
    await log(owner, 'For followers', 'FOLLOWERS');
    expect(await notificationsOf(owner)).toHaveLength(2);

    expect((await setApproval(owner, 'false')).status).toBe(200);
    expect((await followerNames(owner)).sort()).toEqual([first.username, second.username].sort());
    expect(await seenEntries(owner, first)).toEqual(['For followers']);
    expect((await notificationsOf(owner)).map((n) => n.status)).toEqual(['ACCEPTED', 'ACCEPTED']);
  });
});

describe('removing a local follower', () => {
  it('ends their follow at once: no followers-only entries, none of the owner’s items in their feed', async () => {
    const owner = await person('owner');
    const fan = await person('fan');
    expect((await follow(owner, fan)).status).toBe(201);
    await log(owner, 'Secret dram', 'FOLLOWERS');
    expect(await seenEntries(owner, fan)).toEqual(['Secret dram']);
    expect(await feedOf(fan)).toEqual(['Secret dram']);

    const res = await get('/api/users/followers', owner);
    const followers = z.object({ followers: z.array(followerSchema) }).parse(await json(res));
    const [local] = followers.followers;
    expect(local?.kind).toBe('local');
    const removed = await vault.request(`/api/users/followers/${local!.actorId}`, {
      method: 'DELETE',
      cookie: owner.cookie,
    });
    expect(removed.status).toBe(204);
    expect(await followerNames(owner)).toEqual([]);
    expect(await followingOf(fan)).toEqual([]);
    expect(await seenEntries(owner, fan)).toEqual([]);
    expect(await feedOf(fan)).toEqual([]);
  });

  it('answers 404 for someone who does not follow the caller, changing nothing', async () => {
    const owner = await person('owner');
    const fan = await person('fan');
    const stranger = await person('stranger');
    expect((await follow(owner, fan)).status).toBe(201);
    const strangerActor = await vault.ctx.actors.localActorId(stranger.id);
    const res = await vault.request(`/api/users/followers/${strangerActor}`, {
      method: 'DELETE',
      cookie: owner.cookie,
    });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ message: 'This account does not follow you.' });
    // Another user cannot remove the owner's follower either.
    const fanActor = await vault.ctx.actors.localActorId(fan.id);
    const other = await vault.request(`/api/users/followers/${fanActor}`, {
      method: 'DELETE',
      cookie: stranger.cookie,
    });
    expect(other.status).toBe(404);
    expect(await followerNames(owner)).toEqual([fan.username]);
  });
});
