import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_ONLY_FIELDS } from '../../contract/beverages.ts';
import { signedInPeople, type SignedInPerson } from '../helpers/signed-in-people.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// The owner-only fields of an entry (the contract's list, so a field added there is checked
// here without a change) reach its owner and nobody else: not a follower, another member, an
// admin or a recipient of a share, through any door an entry comes through. Each door is asked
// twice: with the entries' cached JSON made by someone else's request, then by the owner's.

type Who = 'owner' | 'follower' | 'member' | 'admin' | 'recipient';
const OTHERS = ['follower', 'member', 'admin', 'recipient'] as const;

let vault: TestVault;
let people: Record<Who, SignedInPerson>;
const entryIds = new Set<number>();

/** A read path: what it asks, and who must find at least one of the owner's entries there. */
interface ReadPath {
  name: string;
  path: string;
  showsEntriesTo: readonly Who[];
  /** One entry: a 404 for whoever may not see it. */
  mayBeHidden?: boolean;
}

function readPaths(): ReadPath[] {
  const everyone = ['owner', ...OTHERS] as const;
  const of = `/api/beverages?userId=${people.owner.id}`;
  const theirList = (name: string, query: string): ReadPath => ({
    name: `the owner's ${name}`,
    path: `${of}${query}`,
    showsEntriesTo: everyone,
  });
  const ownList = (name: string, path: string): ReadPath => ({
    name: `the viewer's own ${name}`,
    path,
    showsEntriesTo: ['owner', 'recipient'],
  });
  return [
    ...[...entryIds].map((id) => ({
      name: `entry ${id}`,
      path: `/api/beverages/${id}`,
      showsEntriesTo: [] as Who[], // all of them together: see the test
      mayBeHidden: true,
    })),
    theirList('profile list', ''),
    theirList('dashboard list', '&type=WHISKEY&status=TRIED&limit=4'),
    theirList('whiskey list', '&type=WHISKEY'),
    theirList('wine list', '&type=WINE'),
    theirList('beer list', '&type=BEER'),
    theirList('to-try archive', '&status=TO_TRY'),
    theirList('cellar', '&cellar=true'),
    theirList('search', '&q=ardbeg'),
    theirList('first page of one', '&limit=1'),
    ownList('list', '/api/beverages'),
    ownList('dashboard list', '/api/beverages?type=WINE&status=TO_TRY&limit=4'),
    ownList('to-try archive', '/api/beverages?status=TO_TRY'),
    ownList('search', '/api/beverages?q=shared'),
    { name: 'activity feed', path: '/api/activity', showsEntriesTo: ['follower', 'admin'] },
    { name: 'notifications', path: '/api/notifications', showsEntriesTo: [] },
    {
      name: 'profile',
      path: `/api/users/profiles/${encodeURIComponent('o_owner')}`,
      showsEntriesTo: [],
    },
  ];
}

/** Every JSON object in an answer, nested ones included. */
function objectsIn(value: unknown, found: Record<string, unknown>[] = []) {
  if (Array.isArray(value)) for (const item of value) objectsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    found.push(value as Record<string, unknown>);
    for (const item of Object.values(value)) objectsIn(item, found);
  }
  return found;
}

/** The owner's entries among an answer's objects (whole entries, not a notification's summary). */
function ownerEntriesIn(objects: Record<string, unknown>[]) {
  return objects.filter((o) => entryIds.has(o.id as number) && 'visibility' in o);
}

/** The owner-only fields an answer gives to `who`; none unless `who` is the owner. */
function expectOwnerFieldsOnlyForOwner(who: Who, where: string, body: unknown) {
  const objects = objectsIn(body);
  if (who === 'owner') {
    for (const entry of ownerEntriesIn(objects)) {
      for (const field of OWNER_ONLY_FIELDS)
        expect(entry, `${where}: ${field}`).toHaveProperty(field);
    }
    return;
  }
  const leaked = objects.flatMap((o) =>
    OWNER_ONLY_FIELDS.filter((field) => Object.hasOwn(o, field)),
  );
  expect(leaked, `${where}, as the ${who}`).toEqual([]);
}

async function answer(who: Who, path: string): Promise<{ status: number; body: unknown }> {
  const res = await vault.request(path, { cookie: people[who].cookie });
  return { status: res.status, body: res.status === 200 ? await res.json() : null };
}

/** Asks every read path as `who`; returns how many of the owner's entries each showed. */
async function readEverything(who: Who): Promise<Map<string, number>> {
  const shown = new Map<string, number>();
  for (const read of readPaths()) {
    let { status, body } = await answer(who, read.path);
    let pages = 0;
    let count = 0;
    for (;;) {
      expect(read.mayBeHidden ? [200, 404] : [200], `${read.name} as the ${who}`).toContain(status);
      expectOwnerFieldsOnlyForOwner(who, read.name, body);
      count += ownerEntriesIn(objectsIn(body)).length;
      // Every page of a paged list (the cursor's pages go through the same cache).
      const next = (body as { nextCursor?: string | null } | null)?.nextCursor;
      if (!next || ++pages > 10 || !read.path.includes('/api/beverages?')) break;
      ({ status, body } = await answer(who, `${read.path}&cursor=${next}`));
    }
    shown.set(read.name, count);
  }
  return shown;
}

async function create(fields: Record<string, string>): Promise<number> {
  const beverage = await vault.logEntry(people.owner.cookie, fields);
  entryIds.add(beverage.id);
  return beverage.id;
}

/** Shares an entry with the recipient, who accepts it; the acceptance's answer is checked. */
async function shareAndAccept(id: number) {
  const share = await vault.postJson(
    `/api/beverages/${id}/share`,
    { userId: people.recipient.id },
    people.owner.cookie,
  );
  expect(share.status).toBe(200);
  await vault.ctx.outbox.idle();
  const inbox = (await answer('recipient', '/api/notifications')).body as {
    notifications: { id: number; type: string; beverage: { id: number } | null }[];
  };
  const invite = inbox.notifications.find(
    (n) => n.type === 'SHARE_INVITE' && n.beverage?.id === id,
  );
  expect(invite).toBeDefined();
  const accepted = await vault.postJson(
    `/api/notifications/${invite!.id}/respond`,
    { action: 'ACCEPT', status: 'TO_TRY' },
    people.recipient.cookie,
  );
  expect(accepted.status).toBe(200);
  const body = (await accepted.json()) as { beverage: Record<string, unknown> };
  expect(body.beverage).toMatchObject({ id, sharedWithCurrentUser: true });
  expectOwnerFieldsOnlyForOwner('recipient', 'the answer to accepting a share', body);
}

beforeAll(async () => {
  vault = createTestVault();
  people = await signedInPeople(vault, 'o', {
    owner: 'USER',
    follower: 'USER',
    member: 'USER',
    admin: 'ADMIN',
    recipient: 'USER',
  });
  for (const who of ['follower', 'admin'] as const) {
    const follow = await vault.postJson(
      `/api/users/${people.owner.id}/follow`,
      {},
      people[who].cookie,
    );
    expect(follow.status).toBe(201);
  }
  const tried = { status: 'TRIED', rating: '4' };
  await create({ name: 'Ardbeg Ten', type: 'WHISKEY', ...tried, inCellar: 'true' });
  await create({ name: 'Ardbeg Uigeadail', type: 'WHISKEY', ...tried, federated: 'false' });
  await create({ name: 'Cellar Rioja', type: 'WINE', status: 'TO_TRY', inCellar: 'true' });
  await create({ name: 'Pale Ale', type: 'BEER', ...tried, visibility: 'MEMBERS' });
  await create({ name: 'Ardbeg Corryvreckan', type: 'WHISKEY', ...tried, visibility: 'FOLLOWERS' });
  await create({ name: 'Secret Ardbeg', type: 'WHISKEY', ...tried, visibility: 'PRIVATE' });
  const sharedPrivate = await create({
    name: 'Shared private wine',
    type: 'WINE',
    status: 'TO_TRY',
    visibility: 'PRIVATE',
  });
  const sharedOpen = await create({ name: 'Shared stout', type: 'BEER', ...tried });
  await shareAndAccept(sharedPrivate);
  await shareAndAccept(sharedOpen);
  await vault.ctx.outbox.idle();
});
afterAll(() => vault.close());

describe('the owner-only fields of an entry', () => {
  it('are a list the contract defines', () => {
    expect(OWNER_ONLY_FIELDS.length).toBeGreaterThan(0);
  });

  it.each([
    ['made by the others’ requests', [...OTHERS, 'owner'] as Who[]],
    ['made by the owner’s requests', ['owner', ...OTHERS] as Who[]],
  ])(
    'reach the owner and nobody else by any read path, with the cached JSON %s',
    async (_, order) => {
      const shown = new Map<Who, Map<string, number>>();
      for (const who of order) shown.set(who, await readEverything(who));
      for (const read of readPaths()) {
        for (const who of read.showsEntriesTo) {
          expect(shown.get(who)!.get(read.name), `${read.name} as the ${who}`).toBeGreaterThan(0);
        }
      }
      // One entry at a time: every viewer may see some of them.
      for (const who of ['owner', ...OTHERS] as Who[]) {
        const entries = [...shown.get(who)!].filter(([name]) => name.startsWith('entry '));
        expect(
          entries.filter(([, n]) => n > 0).length,
          `entries the ${who} may open`,
        ).toBeGreaterThan(0);
      }
      expect(shown.get('owner')!.get('entry ' + [...entryIds][0])).toBe(1);
    },
  );

  it('would be seen if they were there: the owner gets each of them', async () => {
    const { body } = await answer('owner', `/api/beverages?userId=${people.owner.id}`);
    const entries = ownerEntriesIn(objectsIn(body));
    expect(entries).toHaveLength(entryIds.size);
    for (const field of OWNER_ONLY_FIELDS) {
      for (const entry of entries) expect(entry).toHaveProperty(field);
    }
  });
});
