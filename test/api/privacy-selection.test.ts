import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_VISIBILITY_IDS,
  beverageResponseSchema,
  type Beverage,
} from '../../contract/beverages.ts';
import {
  MAX_SELECTED,
  selectionChangedMessage,
  selectionProblem,
} from '../../web/src/vault/selection.ts';
import { signedInPeople, type SignedInPerson } from '../helpers/signed-in-people.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// PATCH /api/beverages/visibility with ids, as the archive's 'Select' mode sends it: only the
// caller's own entries, all or nothing, and a bounded number of them.

let vault: TestVault;
type Who = 'owner' | 'other' | 'admin';
let people: Record<Who, SignedInPerson>;

async function create(who: Who, name: string): Promise<Beverage> {
  const body = new FormData();
  body.append('name', name);
  body.append('type', 'WINE');
  const res = await vault.request('/api/beverages', {
    method: 'POST',
    body,
    cookie: people[who].cookie,
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return beverageResponseSchema.parse(await res.json()).beverage;
}

async function read(who: Who, id: number): Promise<Beverage> {
  const res = await vault.request(`/api/beverages/${id}`, { cookie: people[who].cookie });
  expect(res.status).toBe(200);
  return beverageResponseSchema.parse(await res.json()).beverage;
}

const change = (who: Who, body: unknown) =>
  vault.postJson('/api/beverages/visibility', body, people[who].cookie, 'PATCH');

const NOT_YOURS = { message: 'Some of these entries are not yours or no longer exist' };

beforeAll(async () => {
  vault = createTestVault();
  people = await signedInPeople(vault, 'sel', { owner: 'USER', other: 'USER', admin: 'ADMIN' });
});
afterAll(() => vault.close());

describe('changing the visibility of selected entries', () => {
  it('changes exactly the selected entries and leaves the others as they were', async () => {
    const [a, b, c] = [
      await create('owner', 'Picked Rioja'),
      await create('owner', 'Picked Barolo'),
      await create('owner', 'Unpicked Chianti'),
    ];
    const res = await change('owner', { visibility: 'FOLLOWERS', ids: [a.id, b.id] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ updated: 2 });
    expect((await read('owner', a.id)).visibility).toBe('FOLLOWERS');
    expect((await read('owner', b.id)).visibility).toBe('FOLLOWERS');
    expect((await read('owner', c.id)).visibility).toBe('MEMBERS');
  });

  it('refuses a selection holding someone else’s entry and changes none of it', async () => {
    const mine = await create('owner', 'Mixed Merlot');
    const theirs = await create('other', 'Their Malbec');
    const res = await change('owner', { visibility: 'PRIVATE', ids: [mine.id, theirs.id] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(NOT_YOURS);
    expect((await read('owner', mine.id)).visibility).toBe('MEMBERS');
    expect((await read('other', theirs.id)).visibility).toBe('MEMBERS');
  });

  it('refuses an id that does not exist, and changes nothing of the rest', async () => {
    const mine = await create('owner', 'Lonely Gamay');
    const res = await change('owner', { visibility: 'PRIVATE', ids: [mine.id, 999_999] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(NOT_YOURS);
    expect((await read('owner', mine.id)).visibility).toBe('MEMBERS');
  });

  it('does not let an admin change another user’s entries this way', async () => {
    const theirs = await create('other', 'Guarded Syrah');
    const res = await change('admin', { visibility: 'PRIVATE', ids: [theirs.id] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(NOT_YOURS);
    expect((await read('other', theirs.id)).visibility).toBe('MEMBERS');
  });

  it('counts an entry selected twice once', async () => {
    const mine = await create('owner', 'Twice Tempranillo');
    const res = await change('owner', { visibility: 'PRIVATE', ids: [mine.id, mine.id] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ updated: 1 });
  });

  it('takes whether the selected entries go to the fediverse', async () => {
    const mine = await create('owner', 'Quiet Grenache');
    expect(mine.federated).toBe(true);
    const res = await change('owner', { visibility: 'MEMBERS', federated: false, ids: [mine.id] });
    expect(await res.json()).toEqual({ updated: 1 });
    const after = await read('owner', mine.id);
    expect(after).toMatchObject({ visibility: 'MEMBERS', federated: false });
  });

  it('takes at most 1000 ids at once and explains more', async () => {
    expect(MAX_VISIBILITY_IDS).toBe(1000);
    const mine = await create('owner', 'Bounded Pinot');
    const ids = Array.from({ length: MAX_VISIBILITY_IDS + 1 }, (_, i) => mine.id + i);
    const res = await change('owner', { visibility: 'PRIVATE', ids });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'At most 1000 entries at once; use all to change every entry',
    });
    expect((await read('owner', mine.id)).visibility).toBe('MEMBERS');
  });
});

describe('the archive’s selection, on the client', () => {
  it('takes as many entries as the server does, and says why it cannot apply', () => {
    expect(MAX_SELECTED).toBe(MAX_VISIBILITY_IDS);
    expect(selectionProblem(0)).toBe('Tick the entries to change.');
    expect(selectionProblem(1)).toBeNull();
    expect(selectionProblem(MAX_SELECTED)).toBeNull();
    expect(selectionProblem(MAX_SELECTED + 1)).toBe(
      'Choose at most 1000 entries at once, or change them all under Privacy on your profile.',
    );
  });

  it('says how many entries changed, and when none needed to', () => {
    expect(selectionChangedMessage(2, 3, 'Only me')).toBe('2 entries changed to “Only me”');
    expect(selectionChangedMessage(1, 1, 'My followers')).toBe('1 entry changed to “My followers”');
    expect(selectionChangedMessage(0, 1, 'Only me')).toBe(
      'The selected entry was already “Only me”',
    );
    expect(selectionChangedMessage(0, 4, 'Only me')).toBe(
      'The selected entries were already “Only me”',
    );
  });
});
