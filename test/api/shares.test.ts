import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beveragePageSchema,
  beverageResponseSchema,
  beverageSchema,
  type Beverage,
} from '../../contract/beverages.ts';
import { NO_CONVERSATION } from '../../contract/conversation.ts';
import { presentBeverage } from '../../src/beverages/present.ts';
import { notificationSchema, respondResultSchema } from '../../contract/social.ts';
import type { Role } from '../../src/db/schema/index.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// Sharing an entry (docs/social.md, "Sharing"): the routes, the rules, and the shared entry in
// the recipient's vault. Invitations are answered through ctx.shares, as the notifications
// route does.

let vault: TestVault;
/** The vault's clock: every action below happens a second after the one before. */
let clock = Date.UTC(2026, 0, 1);
const tick = () => (clock += 1000);

interface Person {
  id: number;
  role: Role;
  cookie: string;
  fullName: string;
  username: string;
}
let alice: Person;
let bob: Person;
let carol: Person;
let admin: Person;

async function person(username: string, fullName: string, role: Role = 'USER') {
  const row = await vault.createUser({ username, fullName, role });
  const cookie = await vault.login(username, row.password);
  return { id: row.id, role, cookie, fullName, username };
}

beforeAll(async () => {
  vault = createTestVault({ now: () => clock });
  alice = await person('alice', 'Alice Archer');
  bob = await person('bob', 'Bob Brewer');
  carol = await person('carol', 'Carol Cooper');
  admin = await person('root_admin', 'Root Admin', 'ADMIN');
});
afterAll(() => vault.close());

async function create(who: Person, fields: Record<string, string>): Promise<Beverage> {
  tick();
  const body = new FormData();
  for (const [k, v] of Object.entries({ type: 'WHISKEY', subtype: 'Bourbon', ...fields })) {
    body.append(k, v);
  }
  const res = await vault.request('/api/beverages', { method: 'POST', body, cookie: who.cookie });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return beverageResponseSchema.parse(await res.json()).beverage;
}

async function patch(who: Person, id: number, fields: Record<string, string>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return vault.request(`/api/beverages/${id}`, { method: 'PATCH', body, cookie: who.cookie });
}

const share = (who: Person, entryId: number, body: unknown) =>
  vault.postJson(`/api/beverages/${entryId}/share`, body, who.cookie);

/** Shares and returns the new share's id. */
async function shareWith(entryId: number, recipient: Person, by: Person = alice): Promise<number> {
  const res = await share(by, entryId, { userId: recipient.id });
  if (res.status !== 200) throw new Error(`share failed: ${res.status} ${await res.text()}`);
  const { beverage } = beverageResponseSchema.parse(await res.json());
  return beverage.sharedWith.find((u) => u.id === recipient.id)!.shareId;
}

async function accept(who: Person, shareId: number, status: 'TRIED' | 'TO_TRY') {
  tick();
  return vault.ctx.shares.accept(who, shareId, status);
}

const unshare = (who: Person, entryId: number, shareId: number) =>
  vault.request(`/api/beverages/${entryId}/share/${shareId}`, {
    method: 'DELETE',
    cookie: who.cookie,
  });

async function list(who: Person, query = ''): Promise<Beverage[]> {
  const res = await vault.request(`/api/beverages${query}`, { cookie: who.cookie });
  expect(res.status).toBe(200);
  return beveragePageSchema.parse(await res.json()).beverages;
}
const ids = async (who: Person, query = '') => (await list(who, query)).map((b) => b.id);

async function getEntry(who: Person, id: number) {
  const res = await vault.request(`/api/beverages/${id}`, { cookie: who.cookie });
  return { status: res.status, body: (await res.json()) as unknown };
}

const rows = async (table: string) =>
  (await vault.ctx.database.database
    .prepare(`SELECT count(*) FROM ${table}`)
    .pluck<number>()
    .get()) ?? 0;

describe('sharing an entry', () => {
  it('the owner shares an entry and gets it back with the recipient pending in sharedWith', async () => {
    const entry = await create(alice, { name: 'Shared Bourbon' });
    const res = await share(alice, entry.id, { userId: bob.id, message: '  Try this one  ' });
    expect(res.status).toBe(200);
    const { beverage } = beverageResponseSchema.parse(await res.json());
    expect(beverage).toMatchObject({ id: entry.id, isOwner: true, sharedWithCurrentUser: false });
    expect(beverage.sharedWith).toEqual([
      {
        id: bob.id,
        username: 'bob',
        fullName: 'Bob Brewer',
        shareId: expect.any(Number),
        status: 'PENDING',
      },
    ]);
  });

  it('records an Offer activity with the share, the recipient and the message', async () => {
    const entry = await create(alice, { name: 'Offered' });
    const res = await share(alice, entry.id, { userId: carol.id, message: 'For you' });
    const { beverage } = beverageResponseSchema.parse(await res.json());
    const offer = (await vault.ctx.database.database
      .prepare(
        `SELECT a.actor_id, a.object_actor_id, a.share_id, a.payload FROM activities a
          WHERE a.type = 'Offer' AND a.beverage_id = ?`,
      )
      .get(entry.id)) as Record<string, unknown>;
    expect(offer).toEqual({
      actor_id: await vault.ctx.actors.localActorId(alice.id),
      object_actor_id: await vault.ctx.actors.localActorId(carol.id),
      share_id: beverage.sharedWith[0]!.shareId,
      payload: JSON.stringify({ message: 'For you' }),
    });
  });

  it('an admin may share another user’s entry; another user may not and nothing changes', async () => {
    const entry = await create(alice, { name: 'Admin shares' });
    const refused = await share(carol, entry.id, { userId: bob.id });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'Only the owner or an admin can share this entry',
    );
    expect((await getEntry(alice, entry.id)).body).toMatchObject({ beverage: { sharedWith: [] } });
    const res = await share(admin, entry.id, { userId: bob.id });
    expect(res.status).toBe(200);
    const { beverage } = beverageResponseSchema.parse(await res.json());
    expect(beverage.sharedWith.map((u) => u.id)).toEqual([bob.id]);
  });

  it('refuses sharing with the owner, twice with the same user, with an unknown user or an unknown entry, and changes nothing', async () => {
    const entry = await create(alice, { name: 'Refusals' });
    await shareWith(entry.id, bob);
    const before = [await rows('shares'), await rows('activities')];
    const cases: [Person, number, unknown, number, string][] = [
      [alice, entry.id, { userId: alice.id }, 400, 'You cannot share an entry with yourself'],
      [admin, entry.id, { userId: alice.id }, 400, 'An entry cannot be shared with its owner'],
      [alice, entry.id, { userId: bob.id }, 409, 'This entry is already shared with Bob Brewer'],
      [alice, entry.id, { userId: 999999 }, 404, 'User not found'],
      [alice, 999999, { userId: bob.id }, 404, 'Beverage not found'],
    ];
    for (const [who, id, body, status, message] of cases) {
      const res = await share(who, id, body);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ message });
    }
    expect([await rows('shares'), await rows('activities')]).toEqual(before);
  });

  it('refuses malformed bodies with a message', async () => {
    const entry = await create(alice, { name: 'Bad bodies' });
    const cases: [unknown, string][] = [
      [{}, 'userId must be a user id'],
      [{ userId: 'bob' }, 'userId must be a user id'],
      [{ userId: 1.5 }, 'userId must be a user id'],
      [{ userId: -3 }, 'userId must be a user id'],
      [{ userId: bob.id, extra: true }, 'Unknown field: extra'],
      [
        { userId: bob.id, message: 'x'.repeat(281) },
        'The message must be at most 280 characters long',
      ],
      [{ userId: bob.id, message: 42 }, 'The message must be text'],
      [[], 'The request body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const res = await share(alice, entry.id, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message });
    }
    const broken = await vault.request(`/api/beverages/${entry.id}/share`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"userId":',
      cookie: alice.cookie,
    });
    expect(broken.status).toBe(400);
    const notJson = await vault.request(`/api/beverages/${entry.id}/share`, {
      method: 'POST',
      body: 'userId=2',
      cookie: alice.cookie,
    });
    expect(notJson.status).toBe(415);
    expect((await getEntry(alice, entry.id)).body).toMatchObject({ beverage: { sharedWith: [] } });
  });

  it('anonymous requests are refused with 401', async () => {
    const entry = await create(alice, { name: 'Anonymous' });
    expect(
      (await vault.postJson(`/api/beverages/${entry.id}/share`, { userId: bob.id })).status,
    ).toBe(401);
    const res = await vault.request(`/api/beverages/${entry.id}/share/1`, { method: 'DELETE' });
    expect(res.status).toBe(401);
  });
});

describe('a shared entry in the recipient’s vault', () => {
  it('is not in the recipient’s vault while the invitation is pending', async () => {
    const entry = await create(alice, { name: 'Pending' });
    await shareWith(entry.id, carol);
    expect(await ids(carol)).not.toContain(entry.id);
  });

  it('goes to the top of the chosen list as a read-only card with the owner’s name', async () => {
    const entry = await create(alice, { name: 'Top of the list', rating: '5' });
    const shareId = await shareWith(entry.id, bob);
    for (let i = 0; i < 3; i++) await create(bob, { name: `Bob to-try ${i}`, status: 'TO_TRY' });
    const accepted = beverageSchema.parse(
      presentBeverage(await accept(bob, shareId, 'TO_TRY'), bob.id, NO_CONVERSATION),
    );
    expect(accepted).toMatchObject({ id: entry.id, status: 'TO_TRY', sharedWithCurrentUser: true });

    const dashboard = await list(bob, '?type=WHISKEY&status=TO_TRY&limit=4');
    expect(dashboard[0]).toMatchObject({
      id: entry.id,
      name: 'Top of the list',
      status: 'TO_TRY',
      isOwner: false,
      ownerName: 'Alice Archer',
      sharedWithCurrentUser: true,
      sharedWith: [],
    });
    expect(dashboard).toHaveLength(4);
    expect((await ids(bob))[0]).toBe(entry.id);
    expect(await ids(bob, '?status=TRIED')).not.toContain(entry.id);
    expect(await ids(bob, '?type=WINE')).not.toContain(entry.id);
    expect(await ids(bob, '?type=WHISKEY')).toContain(entry.id);
    // Another entry Bob logs afterwards goes above it.
    const later = await create(bob, { name: 'Later', status: 'TO_TRY' });
    expect((await ids(bob, '?status=TO_TRY')).slice(0, 2)).toEqual([later.id, entry.id]);
  });

  it('shows the recipient as ACCEPTED to the owner and admins, and to nobody else', async () => {
    const entry = await create(alice, { name: 'Accepted for the owner' });
    const shareId = await shareWith(entry.id, bob);
    await accept(bob, shareId, 'TRIED');
    const expected = [
      { id: bob.id, username: 'bob', fullName: 'Bob Brewer', shareId, status: 'ACCEPTED' },
    ];
    const own = (await list(alice)).find((b) => b.id === entry.id)!;
    expect(own.sharedWith).toEqual(expected);
    const asAdmin = (await list(admin, `?userId=${alice.id}`)).find((b) => b.id === entry.id)!;
    expect(asAdmin.sharedWith).toEqual(expected);
    const asCarol = (await list(carol, `?userId=${alice.id}`)).find((b) => b.id === entry.id)!;
    expect(asCarol.sharedWith).toEqual([]);
    const asBob = (await list(bob)).find((b) => b.id === entry.id)!;
    expect(asBob).toMatchObject({ status: 'TRIED', sharedWith: [], sharedWithCurrentUser: true });
    expect((await getEntry(bob, entry.id)).body).toMatchObject({
      beverage: { status: 'TRIED', sharedWithCurrentUser: true, isOwner: false, sharedWith: [] },
    });
  });

  it('sits beside the recipient’s own shared entries, each with its own sharedWith', async () => {
    const entry = await create(alice, { name: 'Shared to Bob' });
    const shareId = await shareWith(entry.id, bob);
    await accept(bob, shareId, 'TRIED');
    const own = await create(bob, { name: 'Bob shares too' });
    const ownShareId = await shareWith(own.id, carol, bob);
    const page = await list(bob, '?status=TRIED');
    expect(page.slice(0, 2).map((b) => [b.id, b.sharedWith.map((u) => u.shareId)])).toEqual([
      [own.id, [ownShareId]],
      [entry.id, []],
    ]);
    const searched = await list(bob, '?q=shared%20to');
    expect(searched.map((b) => b.id)).toEqual([entry.id]);
  });

  it('is in the recipient’s cellar only while the owner has it in the cellar', async () => {
    const entry = await create(alice, { name: 'Cellar share', inCellar: 'false' });
    await accept(bob, await shareWith(entry.id, bob), 'TRIED');
    expect(await ids(bob, '?cellar=true')).not.toContain(entry.id);
    expect((await patch(alice, entry.id, { inCellar: 'true' })).status).toBe(200);
    expect(await ids(bob, '?cellar=true')).toContain(entry.id);
    expect(await ids(bob, '?cellar=false')).not.toContain(entry.id);
  });

  it('is found by the recipient’s search', async () => {
    const entry = await create(alice, {
      name: 'Élan Vital',
      makerName: 'Quixotic Distillery',
      notes: 'Marzipan',
    });
    await accept(bob, await shareWith(entry.id, bob), 'TO_TRY');
    expect(await ids(bob, '?q=elan')).toEqual([entry.id]);
    expect(await ids(bob, '?q=quixotic%20marzipan')).toEqual([entry.id]);
    expect(await ids(bob, '?q=quixotic&status=TRIED')).toEqual([]);
    expect(await ids(bob, '?q=nothing-like-it')).toEqual([]);
    expect(await ids(carol, '?q=quixotic')).toEqual([]);
  });

  it('cannot be changed or deleted by the recipient, but can be cloned into their vault', async () => {
    const entry = await create(alice, { name: 'Read only' });
    await accept(bob, await shareWith(entry.id, bob), 'TRIED');
    const patched = await patch(bob, entry.id, { name: 'Mine now' });
    expect(patched.status).toBe(403);
    expect(await patched.json()).toEqual({
      message: 'Only the owner or an admin can change this entry',
    });
    const deleted = await vault.request(`/api/beverages/${entry.id}`, {
      method: 'DELETE',
      cookie: bob.cookie,
    });
    expect(deleted.status).toBe(403);
    const res = await vault.postJson(
      `/api/beverages/${entry.id}/clone`,
      { status: 'TRIED' },
      bob.cookie,
    );
    expect(res.status).toBe(201);
    const { beverage: copy } = beverageResponseSchema.parse(await res.json());
    expect(copy).toMatchObject({
      name: 'Read only',
      isOwner: true,
      userId: bob.id,
      status: 'TRIED',
    });
    expect((await getEntry(alice, entry.id)).body).toMatchObject({
      beverage: { name: 'Read only' },
    });
  });

  it('shows the owner’s later edits', async () => {
    const entry = await create(alice, { name: 'Before edit' });
    await accept(bob, await shareWith(entry.id, bob), 'TRIED');
    expect((await patch(alice, entry.id, { name: 'After edit', notes: 'Now peated' })).status).toBe(
      200,
    );
    expect((await list(bob)).find((b) => b.id === entry.id)).toMatchObject({
      name: 'After edit',
      notes: 'Now peated',
      status: 'TRIED',
    });
  });

  it('leaves the recipient’s vault when the owner removes the share', async () => {
    const entry = await create(alice, { name: 'Unshared' });
    const shareId = await shareWith(entry.id, bob);
    await accept(bob, shareId, 'TRIED');
    expect(await ids(bob)).toContain(entry.id);
    expect((await unshare(alice, entry.id, shareId)).status).toBe(204);
    expect(await ids(bob)).not.toContain(entry.id);
    expect((await getEntry(alice, entry.id)).body).toMatchObject({ beverage: { sharedWith: [] } });
    const again = await unshare(alice, entry.id, shareId);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: 'Share not found' });
  });

  it('leaves the recipient’s vault when the owner deletes the entry', async () => {
    const entry = await create(alice, { name: 'Deleted' });
    await accept(bob, await shareWith(entry.id, bob), 'TRIED');
    const res = await vault.request(`/api/beverages/${entry.id}`, {
      method: 'DELETE',
      cookie: alice.cookie,
    });
    expect(res.status).toBe(204);
    expect(await ids(bob)).not.toContain(entry.id);
  });

  it('pages through own and shared entries without gaps or repeats', async () => {
    const dave = await person('dave', 'Dave Distiller');
    const expected: number[] = [];
    for (let i = 0; i < 4; i++) {
      expected.unshift((await create(dave, { name: `Dave ${i}` })).id);
      const entry = await create(alice, { name: `For Dave ${i}` });
      await accept(dave, await shareWith(entry.id, dave), 'TRIED');
      expected.unshift(entry.id);
    }
    expect(await ids(dave)).toEqual(expected);
    for (const limit of [1, 2, 3]) {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await vault.request(`/api/beverages${query}`, { cookie: dave.cookie });
        const page = beveragePageSchema.parse(await res.json());
        seen.push(...page.beverages.map((b) => b.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(expected);
    }
  });
});

describe('removing a share', () => {
  it('is for the owner or an admin; a share of another entry or an unknown one is a 404', async () => {
    const entry = await create(alice, { name: 'Removal rules' });
    const other = await create(alice, { name: 'Another entry' });
    const shareId = await shareWith(entry.id, bob);
    const forbidden = await unshare(carol, entry.id, shareId);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({
      message: 'Only the owner or an admin can remove a share of this entry',
    });
    expect((await unshare(bob, entry.id, shareId)).status).toBe(403);
    expect((await unshare(alice, other.id, shareId)).status).toBe(404);
    expect((await unshare(alice, entry.id, 999999)).status).toBe(404);
    expect((await unshare(alice, 999999, shareId)).status).toBe(404);
    expect((await unshare(alice, entry.id, 0)).status).toBe(400);
    expect(await vault.ctx.shares.find(shareId)).toBeDefined();
    expect((await unshare(admin, entry.id, shareId)).status).toBe(204);
    expect(await vault.ctx.shares.find(shareId)).toBeUndefined();
  });

  it('withdraws a pending invitation: it can no longer be accepted', async () => {
    const entry = await create(alice, { name: 'Withdrawn' });
    const shareId = await shareWith(entry.id, bob);
    await vault.ctx.outbox.idle();
    const invites = () =>
      vault.ctx.database.database
        .prepare(
          `SELECT count(*) FROM notifications
            WHERE type = 'SHARE_INVITE' AND recipient_id = ? AND beverage_id = ?`,
        )
        .pluck()
        .get(bob.id, entry.id);
    expect(await invites()).toBe(1);
    expect((await unshare(alice, entry.id, shareId)).status).toBe(204);
    expect(await invites()).toBe(0);
    await expect(accept(bob, shareId, 'TRIED')).rejects.toThrow('Share not found');
    expect(await ids(bob)).not.toContain(entry.id);
  });
});

describe('answering a share', () => {
  it('through the Alerts panel: the invitation names the entry and accepting puts it on top', async () => {
    const entry = await create(alice, { name: 'Through the panel' });
    await share(alice, entry.id, { userId: carol.id, message: 'A good one' });
    await vault.ctx.outbox.idle();
    const res = await vault.request('/api/notifications', { cookie: carol.cookie });
    const invite = notificationSchema
      .array()
      .parse(((await res.json()) as { notifications: unknown[] }).notifications)
      .find((n) => n.type === 'SHARE_INVITE' && n.beverage?.id === entry.id)!;
    expect(invite).toMatchObject({
      status: 'PENDING',
      sender: { fullName: 'Alice Archer', username: 'alice' },
      beverage: { id: entry.id, name: 'Through the panel' },
      payload: { message: 'A good one' },
    });
    tick();
    const answer = await vault.postJson(
      `/api/notifications/${invite.id}/respond`,
      { action: 'ACCEPT', status: 'TO_TRY' },
      carol.cookie,
    );
    expect(answer.status).toBe(200);
    const { beverage } = respondResultSchema.parse(await answer.json());
    expect(beverage).toMatchObject({
      id: entry.id,
      status: 'TO_TRY',
      isOwner: false,
      ownerName: 'Alice Archer',
      sharedWithCurrentUser: true,
    });
    expect((await ids(carol, '?type=WHISKEY&status=TO_TRY&limit=4'))[0]).toBe(entry.id);
  });

  it('declining deletes the pending share', async () => {
    const entry = await create(alice, { name: 'Declined' });
    const shareId = await shareWith(entry.id, bob);
    await vault.ctx.shares.decline(bob, shareId);
    expect(await vault.ctx.shares.find(shareId)).toBeUndefined();
    expect(await ids(bob)).not.toContain(entry.id);
    expect((await getEntry(alice, entry.id)).body).toMatchObject({ beverage: { sharedWith: [] } });
    // Alice may share it again.
    expect((await share(alice, entry.id, { userId: bob.id })).status).toBe(200);
  });

  it('is for the recipient only, once', async () => {
    const entry = await create(alice, { name: 'Answered once' });
    const shareId = await shareWith(entry.id, bob);
    await expect(accept(carol, shareId, 'TRIED')).rejects.toThrow('Share not found');
    await expect(vault.ctx.shares.decline(alice, shareId)).rejects.toThrow('Share not found');
    await expect(accept(admin, shareId, 'TRIED')).rejects.toThrow('Share not found');
    await accept(bob, shareId, 'TRIED');
    await expect(accept(bob, shareId, 'TO_TRY')).rejects.toThrow(
      'This entry is already in your vault',
    );
    await expect(vault.ctx.shares.decline(bob, shareId)).rejects.toThrow(
      'This entry is already in your vault',
    );
    expect((await list(bob)).find((b) => b.id === entry.id)?.status).toBe('TRIED');
  });

  it('works inside the caller’s transaction, which can roll it back', async () => {
    const entry = await create(alice, { name: 'Rolled back' });
    const shareId = await shareWith(entry.id, bob);
    await expect(
      vault.ctx.database.transaction(async () => {
        await accept(bob, shareId, 'TRIED');
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect((await vault.ctx.shares.find(shareId))?.state).toBe('PENDING');
    expect(await ids(bob)).not.toContain(entry.id);
  });
});
