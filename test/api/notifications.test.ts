import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notificationSchema, respondResultSchema } from '../../contract/social.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let alice: string;
let bob: string;
let admin: string;
let ids: Record<'alice' | 'bob' | 'admin', number>;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  const ad = await vault.createUser({ username: 'root_admin', fullName: 'Root', role: 'ADMIN' });
  ids = { alice: a.id, bob: b.id, admin: ad.id };
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  admin = await vault.login('root_admin', ad.password);
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec(
    'DELETE FROM notifications; DELETE FROM follows; DELETE FROM shares;',
  );
});

const list = z.object({ notifications: z.array(notificationSchema) });
const db = () => vault.ctx.database.database;

async function notificationsOf(cookie: string) {
  await vault.ctx.outbox.idle();
  const res = await vault.request('/api/notifications', { cookie });
  expect(res.status).toBe(200);
  return list.parse(await json(res)).notifications;
}
const respond = (id: number, body: unknown, cookie: string) =>
  vault.postJson(`/api/notifications/${id}/respond`, body, cookie);
const follow = (id: number, cookie: string) =>
  vault.postJson(`/api/users/${id}/follow`, {}, cookie);
const following = async (cookie: string) =>
  (await json(await vault.request('/api/users/following', { cookie }))).following.map(
    (f: { user: { username: string } }) => f.user.username,
  ) as string[];
/** What a refused answer must leave as it was. */
const snapshot = async () =>
  JSON.stringify(
    await Promise.all(
      ['notifications', 'follows', 'shares', 'beverages'].map((t) =>
        db().prepare(`SELECT * FROM ${t} ORDER BY id`).all(),
      ),
    ),
  );

async function entryOf(cookie: string, name: string): Promise<number> {
  const form = new FormData();
  form.append('name', name);
  form.append('type', 'WINE');
  form.append('subtype', 'Merlot');
  const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
  expect(res.status).toBe(201);
  return (await json(res)).beverage.id;
}
async function share(entryId: number, userId: number, cookie: string, message?: string) {
  const res = await vault.postJson(
    `/api/beverages/${entryId}/share`,
    { userId, ...(message !== undefined && { message }) },
    cookie,
  );
  expect(res.status).toBe(200);
}
async function followInvite(): Promise<number> {
  expect((await follow(ids.bob, alice)).status).toBe(201);
  const [invite] = await notificationsOf(bob);
  return invite!.id;
}
async function shareInvite(message?: string): Promise<{ id: number; entryId: number }> {
  const entryId = await entryOf(alice, 'Pomerol 2015');
  await share(entryId, ids.bob, alice, message);
  const [invite] = await notificationsOf(bob);
  return { id: invite!.id, entryId };
}

describe('notifications', () => {
  it('tell the followed user of a follow: FOLLOW_INVITE from the follower, pending', async () => {
    await followInvite();
    const [invite] = await notificationsOf(bob);
    expect(invite).toEqual({
      id: expect.any(Number),
      type: 'FOLLOW_INVITE',
      status: 'PENDING',
      sender: { fullName: 'Alice Archer', username: 'alice', following: false, requested: false },
      beverage: null,
      payload: {},
      createdAt: expect.any(String),
    });
    expect(await notificationsOf(alice)).toEqual([]);
  });

  it('tell the recipient of a shared entry: SHARE_INVITE with the entry and the message', async () => {
    const { entryId } = await shareInvite('You will like this one');
    expect(await notificationsOf(bob)).toEqual([
      {
        id: expect.any(Number),
        type: 'SHARE_INVITE',
        status: 'PENDING',
        sender: { fullName: 'Alice Archer', username: 'alice', following: false, requested: false },
        beverage: { id: entryId, name: 'Pomerol 2015' },
        payload: { message: 'You will like this one' },
        createdAt: expect.any(String),
      },
    ]);
  });

  it('list the caller’s own only, newest first', async () => {
    await followInvite();
    const entryId = await entryOf(admin, 'Chablis');
    await share(entryId, ids.bob, admin);
    expect((await notificationsOf(bob)).map((n) => [n.type, n.sender.username])).toEqual([
      ['SHARE_INVITE', 'root_admin'],
      ['FOLLOW_INVITE', 'alice'],
    ]);
    expect(await notificationsOf(admin)).toEqual([]);
  });

  it('are added once per activity, however often it is delivered', async () => {
    await followInvite();
    const activity = (await db()
      .prepare("SELECT id FROM activities WHERE type = 'Follow' ORDER BY id DESC")
      .pluck()
      .get()) as number;
    await db()
      .prepare('INSERT INTO outbox (activity_id, next_attempt_at, created_at) VALUES (?, 0, 0)')
      .run(activity);
    vault.ctx.outbox.start();
    expect(await notificationsOf(bob)).toHaveLength(1);
  });

  it('hold the most recent 200', async () => {
    const sender = await vault.ctx.actors.localActorId(ids.alice);
    const insert = db().prepare(
      `INSERT INTO notifications (recipient_id, type, status, sender_id, created_at)
       VALUES (?, 'FOLLOW_INVITE', 'ACCEPTED', ?, ?)`,
    );
    for (let i = 0; i < 230; i++) await insert.run(ids.bob, sender, 1_000_000 + i);
    const shown = await notificationsOf(bob);
    expect(shown).toHaveLength(200);
    expect(shown[0]!.createdAt).toBe(new Date(1_000_229).toISOString());
  });

  it('withdraw an unanswered follow invitation when the follower unfollows', async () => {
    await followInvite();
    const res = await vault.request(`/api/users/${ids.bob}/follow`, {
      method: 'DELETE',
      cookie: alice,
    });
    expect(res.status).toBe(204);
    expect(await notificationsOf(bob)).toEqual([]);
  });

  it('are refused to anonymous requests with 401', async () => {
    expect((await vault.request('/api/notifications')).status).toBe(401);
    const res = await vault.postJson('/api/notifications/1/respond', { action: 'DECLINE' });
    expect(res.status).toBe(401);
  });
});

describe('answering a follow invitation', () => {
  it("'Follow back' follows the sender and marks it accepted", async () => {
    const id = await followInvite();
    const res = await respond(id, { action: 'ACCEPT' }, bob);
    expect(res.status).toBe(200);
    const body = respondResultSchema.parse(await json(res));
    expect(body.notification).toMatchObject({ id, status: 'ACCEPTED' });
    expect(body.beverage).toBeUndefined();
    expect(await following(bob)).toEqual(['alice']);
    // …and alice is told in turn.
    expect((await notificationsOf(alice)).map((n) => n.sender.username)).toEqual(['bob']);
  });

  it("'Follow back' when already following is no error", async () => {
    expect((await follow(ids.alice, bob)).status).toBe(201);
    const id = await followInvite();
    const res = await respond(id, { action: 'ACCEPT' }, bob);
    expect(res.status).toBe(200);
    expect(await following(bob)).toEqual(['alice']);
  });

  it("say whether the recipient follows the sender now, so that 'Follow back' is offered only when not", async () => {
    const id = await followInvite();
    const sender = async () => (await notificationsOf(bob)).find((n) => n.id === id)!.sender;
    expect(await sender()).toMatchObject({ following: false, requested: false });

    expect((await follow(ids.alice, bob)).status).toBe(201);
    expect(await sender()).toMatchObject({ following: true, requested: false });

    const res = await vault.request(`/api/users/${ids.alice}/follow`, {
      method: 'DELETE',
      cookie: bob,
    });
    expect(res.status).toBe(204);
    expect(await sender()).toMatchObject({ following: false, requested: false });

    // A follow sent and not accepted yet (how a fediverse account's Follow waits for its Accept).
    expect((await follow(ids.alice, bob)).status).toBe(201);
    await db()
      .prepare("UPDATE follows SET state = 'PENDING' WHERE follower_id = ? AND followed_id = ?")
      .run(
        await vault.ctx.actors.localActorId(ids.bob),
        await vault.ctx.actors.localActorId(ids.alice),
      );
    expect(await sender()).toMatchObject({ following: false, requested: true });
    // Each recipient's own follows count: alice follows bob (bob's unfollow took back his first).
    expect((await notificationsOf(alice)).map((n) => n.sender)).toEqual([
      { fullName: 'Bob Brewer', username: 'bob', following: true, requested: false },
    ]);
  });

  it("'Dismiss' only marks it declined", async () => {
    const id = await followInvite();
    const res = await respond(id, { action: 'DECLINE' }, bob);
    expect(res.status).toBe(200);
    expect(respondResultSchema.parse(await json(res)).notification.status).toBe('DECLINED');
    expect(await following(bob)).toEqual([]);
  });

  it('refuses a status, a second answer and someone else’s, changing nothing', async () => {
    const id = await followInvite();
    let before = await snapshot();
    const withStatus = await respond(id, { action: 'ACCEPT', status: 'TRIED' }, bob);
    expect(withStatus.status).toBe(400);
    expect(await json(withStatus)).toEqual({
      message: 'A follow invitation is answered without a status.',
    });
    for (const cookie of [alice, admin]) {
      const foreign = await respond(id, { action: 'ACCEPT' }, cookie);
      expect(foreign.status).toBe(404);
      expect(await json(foreign)).toEqual({ message: 'Notification not found' });
    }
    expect(await snapshot()).toBe(before);
    expect((await respond(id, { action: 'DECLINE' }, bob)).status).toBe(200);
    before = await snapshot();
    const again = await respond(id, { action: 'ACCEPT' }, bob);
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ message: 'This notification has already been answered.' });
    expect(await snapshot()).toBe(before);
  });
});

describe('answering a share invitation', () => {
  it("'Add to to-try' puts the entry into the recipient's vault and returns it", async () => {
    const { id, entryId } = await shareInvite();
    const res = await respond(id, { action: 'ACCEPT', status: 'TO_TRY' }, bob);
    expect(res.status).toBe(200);
    const body = respondResultSchema.parse(await json(res));
    expect(body.notification).toMatchObject({ id, status: 'ACCEPTED' });
    expect(body.beverage).toMatchObject({
      id: entryId,
      isOwner: false,
      ownerName: 'Alice Archer',
      sharedWithCurrentUser: true,
    });
    const share = await db().prepare('SELECT state, list_status FROM shares').get();
    expect(share).toEqual({ state: 'ACCEPTED', list_status: 'TO_TRY' });
  });

  it("'Add to tried' accepts into the tried list", async () => {
    const { id } = await shareInvite();
    const res = await respond(id, { action: 'ACCEPT', status: 'TRIED' }, bob);
    expect(res.status).toBe(200);
    expect(await db().prepare('SELECT list_status FROM shares').pluck().get()).toBe('TRIED');
  });

  it("'Decline' removes the pending share", async () => {
    const { id } = await shareInvite();
    const res = await respond(id, { action: 'DECLINE' }, bob);
    expect(res.status).toBe(200);
    expect(respondResultSchema.parse(await json(res)).notification.status).toBe('DECLINED');
    expect(await db().prepare('SELECT count(*) FROM shares').pluck().get()).toBe(0);
  });

  it('refuses accepting without a status, changing nothing', async () => {
    const { id } = await shareInvite();
    const before = await snapshot();
    const res = await respond(id, { action: 'ACCEPT' }, bob);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      message: 'Choose TRIED or TO_TRY to add the shared entry to your vault.',
    });
    expect(await snapshot()).toBe(before);
  });

  it('refuses a wrong action or status, an unknown field and malformed JSON with 400', async () => {
    const { id } = await shareInvite();
    const before = await snapshot();
    const cases: [unknown, string][] = [
      [{ action: 'MAYBE' }, 'action must be ACCEPT or DECLINE'],
      [{ action: 'ACCEPT', status: 'DRUNK' }, 'Status must be TRIED or TO_TRY'],
      [{ action: 'ACCEPT', status: 'TRIED', extra: 1 }, 'Unknown field: extra'],
      [[], 'The request body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const res = await respond(id, body, bob);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message });
    }
    const broken = await vault.request(`/api/notifications/${id}/respond`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"action":',
      cookie: bob,
    });
    expect(broken.status).toBe(400);
    expect((await respond(0, { action: 'DECLINE' }, bob)).status).toBe(400);
    expect((await respond(999_999, { action: 'DECLINE' }, bob)).status).toBe(404);
    expect(await snapshot()).toBe(before);
  });

  it('refuses someone else’s, the owner’s and an admin’s answer with 404', async () => {
    const { id } = await shareInvite();
    const before = await snapshot();
    for (const cookie of [alice, admin]) {
      const res = await respond(id, { action: 'ACCEPT', status: 'TRIED' }, cookie);
      expect(res.status).toBe(404);
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses a second answer with 409', async () => {
    const { id } = await shareInvite();
    expect((await respond(id, { action: 'ACCEPT', status: 'TRIED' }, bob)).status).toBe(200);
    const before = await snapshot();
    const res = await respond(id, { action: 'DECLINE' }, bob);
    expect(res.status).toBe(409);
    expect(await snapshot()).toBe(before);
  });

  it('refuses accepting a share withdrawn meanwhile with 409, and lets it be dismissed', async () => {
    const { id } = await shareInvite();
    await db().exec('DELETE FROM shares'); // withdrawn as the answer was on its way
    const before = await snapshot();
    const res = await respond(id, { action: 'ACCEPT', status: 'TO_TRY' }, bob);
    expect(res.status).toBe(409);
    expect(await json(res)).toEqual({ message: 'This invitation was withdrawn.' });
    expect(await snapshot()).toBe(before);
    const dismissed = await respond(id, { action: 'DECLINE' }, bob);
    expect(dismissed.status).toBe(200);
  });

  it('disappears when the owner removes the share before it is answered', async () => {
    const { entryId } = await shareInvite();
    const shareId = (await db().prepare('SELECT id FROM shares').pluck().get()) as number;
    const res = await vault.request(`/api/beverages/${entryId}/share/${shareId}`, {
      method: 'DELETE',
      cookie: alice,
    });
    expect(res.status).toBe(204);
    expect(await notificationsOf(bob)).toEqual([]);
  });

  it('disappears with its entry', async () => {
    const { entryId } = await shareInvite();
    const res = await vault.request(`/api/beverages/${entryId}`, {
      method: 'DELETE',
      cookie: alice,
    });
    expect(res.status).toBe(204);
    expect(await notificationsOf(bob)).toEqual([]);
  });
});
