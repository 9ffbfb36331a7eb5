import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  beveragePageSchema,
  beverageResponseSchema,
  type Beverage,
} from '../../contract/beverages.ts';
import { blockAnswerSchema } from '../../contract/blocks.ts';
import { commentListSchema } from '../../contract/conversation.ts';
import { activityPageSchema, notificationListSchema } from '../../contract/social.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { signedInPeople, type SignedInPerson } from '../helpers/signed-in-people.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The block dimension of who sees what (docs/social.md, "Blocks" and "Visibility"): Alice and
 * Bruno share a PRIVATE entry each with the other and accept, cheer and comment on each other's
 * and on Carol's, and get the notifications of it. Then one blocks the other (each way in turn)
 * and Alice edits her entry: every read path a person has of the other (their own lists with
 * every filter, the other's list, the entry, its photo, sharedWith, notifications, and the
 * counts of cheers and comments on their own, the other's and a third person's entry, in the
 * list, the entry and the feed) shows nothing of the other, and all of it comes back when the
 * block is lifted. Carol, who blocked nobody, sees everything throughout.
 */

type Who = 'alice' | 'bruno' | 'carol' | 'admin';
let vault: TestVault;
let people: Record<Who, SignedInPerson & { username: string }>;

beforeAll(async () => {
  vault = createTestVault();
  const made = await signedInPeople(vault, 'pb', {
    alice: 'USER',
    bruno: 'USER',
    carol: 'USER',
    admin: 'ADMIN',
  });
  people = Object.fromEntries(
    Object.entries(made).map(([who, person]) => [who, { ...person, username: `pb_${who}` }]),
  ) as typeof people;
});
afterAll(() => vault.close());

/** What each of the two has: their PRIVATE entry shared with the other, and another not shared. */
let entries: Record<'alice' | 'bruno', Beverage>;
let brunoUnshared: Beverage;
let carols: Beverage;

const get = async (path: string, who: SignedInPerson) => {
  const res = await vault.request(path, { cookie: who.cookie });
  return { status: res.status, body: res.status === 200 ? await json(res) : undefined };
};
const post = async (path: string, body: unknown, who: SignedInPerson, status = 200) => {
  const res = await vault.postJson(path, body, who.cookie);
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(status);
  return json(res);
};

async function logWine(who: SignedInPerson, name: string): Promise<Beverage> {
  const year = new Date().getUTCFullYear();
  const fields = {
    name,
    type: 'WINE',
    subtype: 'Tempranillo',
    status: 'TRIED',
    inCellar: 'true',
    drinkFrom: String(year - 1),
    drinkUntil: String(year + 1),
    visibility: 'PRIVATE',
  };
  return vault.logEntry(who.cookie, fields, await jpeg(32, 32));
}

/** Accepts every pending share invitation of the person into their TRIED list. */
async function acceptInvites(who: SignedInPerson): Promise<void> {
  const { body } = await get('/api/notifications', who);
  for (const n of notificationListSchema.parse(body).notifications) {
    if (n.type !== 'SHARE_INVITE' || n.status !== 'PENDING') continue;
    await post(`/api/notifications/${n.id}/respond`, { action: 'ACCEPT', status: 'TRIED' }, who);
  }
}

beforeEach(async () => {
  await vault.ctx.database.database.exec(
    'DELETE FROM blocks; DELETE FROM notifications; DELETE FROM comments; DELETE FROM cheers; DELETE FROM follows; DELETE FROM feed_items; DELETE FROM shares; DELETE FROM bottles; DELETE FROM places; DELETE FROM beverages;',
  );
  const { alice, bruno, carol, admin } = people;
  entries = {
    alice: await logWine(alice, 'Alice Reserva'),
    bruno: await logWine(bruno, 'Bruno Reserva'),
  };
  // Shared with Alice by an admin, left pending: a notification about Bruno's entry, not from him.
  brunoUnshared = await logWine(bruno, 'Bruno Cava');
  for (const who of ['alice', 'bruno'] as const) {
    const place = await post('/api/cellar/places', { name: 'Rack' }, people[who], 201);
    await post(
      `/api/beverages/${entries[who].id}/bottles`,
      { placeId: place.place.id },
      people[who],
      201,
    );
  }
  await post(`/api/beverages/${entries.alice.id}/share`, { userId: bruno.id }, alice);
  await post(`/api/beverages/${entries.bruno.id}/share`, { userId: alice.id }, bruno);
  await vault.ctx.outbox.idle();
  await acceptInvites(alice);
  await acceptInvites(bruno);
  await post(`/api/beverages/${brunoUnshared.id}/share`, { userId: alice.id }, admin);
  // Both follow Carol before she logs her entry, so that it reaches their feeds whenever the
  // outbox delivers it.
  for (const who of [alice, bruno]) await post(`/api/users/${carol.id}/follow`, {}, who, 201);
  carols = await vault.logEntry(carol.cookie, { name: 'Carol Stout', type: 'BEER' });
  for (const [who, entryIds] of [
    [alice, [entries.bruno.id, carols.id]],
    [bruno, [entries.alice.id, carols.id]],
  ] as const) {
    for (const id of entryIds) {
      await post(`/api/beverages/${id}/cheer`, {}, who);
      await post(`/api/beverages/${id}/comments`, { content: 'Lovely' }, who, 201);
    }
  }
  await vault.ctx.outbox.idle();
});

/** The list queries a person's own vault answers, each of which holds the entry shared with them. */
const LIST_QUERIES = [
  '',
  'limit=4',
  'status=TRIED',
  'q=',
  'q=Reserva',
  'cellar=true',
  'status=TRIED&type=WINE&cellar=true&window=NOW&q=Reserva&limit=2',
  'window=NOW',
  'type=WINE',
];

async function ownListNames(who: SignedInPerson, query: string): Promise<string[]> {
  const { status, body } = await get(`/api/beverages?${query}`, who);
  expect(status).toBe(200);
  return beveragePageSchema.parse(body).beverages.map((b) => b.name);
}

/** The person's own list walked one entry a page, following the cursor. */
async function pagedNames(who: SignedInPerson): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const query = `limit=1${cursor ? `&cursor=${cursor}` : ''}`;
    const page = beveragePageSchema.parse((await get(`/api/beverages?${query}`, who)).body);
    names.push(...page.beverages.map((b) => b.name));
    cursor = page.nextCursor;
  }
  return names;
}

async function entryAs(who: SignedInPerson, id: number) {
  const { status, body } = await get(`/api/beverages/${id}`, who);
  return status === 200 ? beverageResponseSchema.parse(body).beverage : status;
}

/** What `viewer` sees of `other` (Alice or Bruno) through every read path, as one object. */
async function whatOneSeesOfTheOther(viewer: 'alice' | 'bruno', other: 'alice' | 'bruno') {
  const me = people[viewer];
  const theirs = entries[other];
  const seen: Record<string, unknown> = {};
  for (const query of LIST_QUERIES) {
    seen[`own list ?${query}`] = (await ownListNames(me, query)).includes(theirs.name);
  }
  seen['own list, a page at a time'] = (await pagedNames(me)).includes(theirs.name);
  const places = (await get('/api/cellar/places', me)).body.places as { id: number }[];
  seen['own list ?placeId'] = (await ownListNames(me, `placeId=${places[0]!.id}`)).includes(
    theirs.name,
  );
  seen['their list'] = (await ownListNames(me, `userId=${people[other].id}`)).length > 0;
  const entry = await entryAs(me, theirs.id);
  seen['their entry'] = typeof entry === 'object';
  seen['its photo'] = (await vault.request(`/${theirs.photoPath}`, { cookie: me.cookie })).status;
  const mine = (await entryAs(me, entries[viewer].id)) as Beverage;
  seen['sharedWith of mine'] = mine.sharedWith.map((u) => u.id);
  seen['counts of mine'] = [mine.cheerCount, mine.commentCount];
  const notifications = notificationListSchema.parse((await get('/api/notifications', me)).body);
  seen.notifications = notifications.notifications
    .map((n) => `${n.type} ${n.sender.username} ${n.beverage?.name}`)
    .sort();
  return seen;
}

/** The counts of Carol's entry (cheered and commented by Alice and Bruno) as `who` sees them. */
async function carolsCounts(who: SignedInPerson) {
  const listed = beveragePageSchema
    .parse((await get(`/api/beverages?userId=${people.carol.id}`, who)).body)
    .beverages.find((b) => b.id === carols.id)!;
  const entry = (await entryAs(who, carols.id)) as Beverage;
  const feed = activityPageSchema.parse((await get('/api/activity', who)).body).activities;
  const inFeed = feed.find((a) => a.beverage.id === carols.id)?.beverage;
  const thread = commentListSchema.parse(
    (await get(`/api/beverages/${carols.id}/comments`, who)).body,
  );
  return {
    list: [listed.cheerCount, listed.commentCount],
    entry: [entry.cheerCount, entry.commentCount],
    feed: inFeed && [inFeed.cheerCount, inFeed.commentCount],
    thread: thread.comments.length,
  };
}

/** Everything `viewer` sees of the other when no block stands between them. */
function unblocked(viewer: 'alice' | 'bruno') {
  const other = viewer === 'alice' ? 'bruno' : 'alice';
  const seen: Record<string, unknown> = {};
  for (const query of LIST_QUERIES) seen[`own list ?${query}`] = true;
  seen['own list, a page at a time'] = true;
  seen['own list ?placeId'] = false; // a place holds only its owner's bottles
  seen['their list'] = true;
  seen['their entry'] = true;
  seen['its photo'] = 200;
  seen['sharedWith of mine'] = [people[other].id];
  seen['counts of mine'] = [1, 1];
  const sender = people[other].username;
  const notifications = [
    `CHEER ${sender} ${entries[viewer].name}`,
    `COMMENT ${sender} ${entries[viewer].name}`,
    `SHARE_INVITE ${sender} ${entries[other].name}`,
  ];
  if (viewer === 'alice') notifications.push(`SHARE_INVITE pb_admin Bruno Cava`);
  seen.notifications = notifications.sort();
  return seen;
}

/** Everything `viewer` sees of the other while one of them blocks the other: nothing. */
function blocked(viewer: 'alice' | 'bruno') {
  const seen = unblocked(viewer);
  for (const key of Object.keys(seen)) if (key.startsWith('own list')) seen[key] = false;
  seen['their list'] = false;
  seen['their entry'] = false;
  seen['its photo'] = 404;
  seen['sharedWith of mine'] = [];
  seen['counts of mine'] = [0, 0];
  seen.notifications = [];
  return seen;
}

const BOTH_WAYS = [
  { blocker: 'alice', blocked: 'bruno' },
  { blocker: 'bruno', blocked: 'alice' },
] as const;

describe.each(BOTH_WAYS)('when $blocker blocks $blocked', ({ blocker, blocked: target }) => {
  it('each sees nothing of the other (shares, notifications, counts) until it is lifted', async () => {
    for (const viewer of ['alice', 'bruno'] as const) {
      const other = viewer === 'alice' ? 'bruno' : 'alice';
      expect(await whatOneSeesOfTheOther(viewer, other), `${viewer}, before`).toEqual(
        unblocked(viewer),
      );
    }
    const answer = await post(
      '/api/users/blocks',
      { username: people[target].username },
      people[blocker],
      201,
    );
    const blockId = blockAnswerSchema.parse(answer).block.id;
    const edit = new FormData();
    edit.append('notes', 'Edited after the block');
    const patched = await vault.request(`/api/beverages/${entries.alice.id}`, {
      method: 'PATCH',
      body: edit,
      cookie: people.alice.cookie,
    });
    expect(patched.status).toBe(200);
    for (const viewer of ['alice', 'bruno'] as const) {
      const other = viewer === 'alice' ? 'bruno' : 'alice';
      expect(await whatOneSeesOfTheOther(viewer, other), `${viewer}, blocked`).toEqual(
        blocked(viewer),
      );
    }
    const unblock = await vault.request(`/api/users/blocks/${blockId}`, {
      method: 'DELETE',
      cookie: people[blocker].cookie,
    });
    expect(unblock.status).toBe(204);
    for (const viewer of ['alice', 'bruno'] as const) {
      const other = viewer === 'alice' ? 'bruno' : 'alice';
      expect(await whatOneSeesOfTheOther(viewer, other), `${viewer}, unblocked`).toEqual(
        unblocked(viewer),
      );
    }
  });

  it('counts on a third person’s entry only what each may read, and all of it for the third', async () => {
    const both = { list: [2, 2], entry: [2, 2], feed: [2, 2], thread: 2 };
    expect(await carolsCounts(people.alice)).toEqual(both);
    await post('/api/users/blocks', { username: people[target].username }, people[blocker], 201);
    const own = { list: [1, 1], entry: [1, 1], feed: [1, 1], thread: 1 };
    expect(await carolsCounts(people.alice)).toEqual(own);
    expect(await carolsCounts(people.bruno)).toEqual(own);
    const carol = await carolsCounts(people.carol);
    expect({ list: carol.list, entry: carol.entry, thread: carol.thread }).toEqual({
      list: [2, 2],
      entry: [2, 2],
      thread: 2,
    });
  });
});
