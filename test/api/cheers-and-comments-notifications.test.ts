import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commentResponseSchema } from '../../contract/conversation.ts';
import { notificationSchema } from '../../contract/social.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The notifications of cheers and comments: the entry's owner gets a CHEER or COMMENT for each
 * from someone else, made by the outbox's local delivery of the Like and Comment activities,
 * and they go when the cheer is taken back or the comment deleted.
 */
let vault: TestVault;
let olive: string;
let mia: string;
let ids: Record<'olive' | 'mia', number>;

beforeAll(async () => {
  vault = createTestVault();
  const o = await vault.createUser({ username: 'olive', fullName: 'Olive Owner' });
  const m = await vault.createUser({ username: 'mia', fullName: 'Mia Member' });
  ids = { olive: o.id, mia: m.id };
  olive = await vault.login('olive', o.password);
  mia = await vault.login('mia', m.password);
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec('DELETE FROM beverages; DELETE FROM notifications;');
});

const list = z.object({ notifications: z.array(notificationSchema) });

async function notificationsOf(cookie: string) {
  await vault.ctx.outbox.idle();
  const res = await vault.request('/api/notifications', { cookie });
  expect(res.status).toBe(200);
  return list.parse(await json(res)).notifications;
}

const entry = async (name = 'Springbank 10') =>
  (await vault.logEntry(olive, { name, type: 'WHISKEY' })).id;
const cheer = (id: number, cookie: string, method = 'POST') =>
  vault.request(`/api/beverages/${id}/cheer`, { method, cookie });
async function comment(id: number, cookie: string, content: string): Promise<number> {
  const res = await vault.postJson(`/api/beverages/${id}/comments`, { content }, cookie);
  expect(res.status).toBe(201);
  return commentResponseSchema.parse(await json(res)).comment.id;
}
const respond = (id: number, body: unknown, cookie: string) =>
  vault.postJson(`/api/notifications/${id}/respond`, body, cookie);

describe('notifications of cheers and comments', () => {
  it('a cheer from someone else tells the owner, with the entry’s name, waiting to be dismissed', async () => {
    const id = await entry();
    await cheer(id, mia);
    expect(await notificationsOf(olive)).toEqual([
      {
        id: expect.any(Number),
        type: 'CHEER',
        status: 'PENDING',
        sender: { fullName: 'Mia Member', username: 'mia', following: false, requested: false },
        beverage: { id, name: 'Springbank 10' },
        payload: {},
        createdAt: expect.any(String),
      },
    ]);
    await cheer(id, mia); // cheering again is no new cheer
    expect(await notificationsOf(olive)).toHaveLength(1);
    expect(await notificationsOf(mia)).toEqual([]);
  });

  it('the owner’s own cheer and comment tell nobody', async () => {
    const id = await entry();
    await cheer(id, olive);
    await comment(id, olive, 'My own words');
    expect(await notificationsOf(olive)).toEqual([]);
  });

  it('taking a cheer back removes its notification', async () => {
    const id = await entry();
    await cheer(id, mia);
    expect(await notificationsOf(olive)).toHaveLength(1);
    await cheer(id, mia, 'DELETE');
    expect(await notificationsOf(olive)).toEqual([]);
  });

  it('a cheer taken back before the outbox delivered it tells nobody', async () => {
    const id = await entry();
    await vault.ctx.outbox.idle();
    // Both before the outbox's next run (an immediate, after them): the Like is still in the
    // outbox when the cheer goes.
    const viewer = { id: ids.mia, role: 'USER' as const };
    await vault.ctx.conversation.cheer(viewer, { kind: 'local', id });
    await vault.ctx.conversation.uncheer(viewer, { kind: 'local', id });
    expect(await notificationsOf(olive)).toEqual([]);
    // Delivered, not failing over and over: nothing is left in the outbox.
    const left = await vault.ctx.database.database
      .prepare('SELECT count(*) FROM outbox')
      .pluck()
      .get();
    expect(left).toBe(0);
  });

  it('a comment deleted before the outbox delivered it tells nobody', async () => {
    const id = await entry();
    await vault.ctx.outbox.idle();
    const viewer = { id: ids.mia, role: 'USER' as const };
    const ref = { kind: 'local' as const, id };
    const written = await vault.ctx.conversation.comment(viewer, ref, 'Never mind');
    await vault.ctx.conversation.deleteComment(viewer, ref, written.id);
    expect(await notificationsOf(olive)).toEqual([]);
    const left = await vault.ctx.database.database
      .prepare('SELECT count(*) FROM outbox')
      .pluck()
      .get();
    expect(left).toBe(0);
  });

  it('a comment tells the owner with its text, and deleting the comment removes the notification', async () => {
    const id = await entry('Kilkerran 12');
    const first = await comment(id, mia, 'Salty and sweet.');
    await comment(id, mia, 'Second thought.');
    const before = await notificationsOf(olive);
    expect(before.map((n) => [n.type, n.beverage, n.payload, n.sender.username])).toEqual([
      ['COMMENT', { id, name: 'Kilkerran 12' }, { message: 'Second thought.' }, 'mia'],
      ['COMMENT', { id, name: 'Kilkerran 12' }, { message: 'Salty and sweet.' }, 'mia'],
    ]);
    const res = await vault.request(`/api/beverages/${id}/comments/${first}`, {
      method: 'DELETE',
      cookie: olive,
    });
    expect(res.status).toBe(204);
    const after = await notificationsOf(olive);
    expect(after.map((n) => n.payload.message)).toEqual(['Second thought.']);
  });

  it('a cheer or comment notification is dismissed with DECLINE; ACCEPT is refused with 400', async () => {
    const id = await entry();
    await cheer(id, mia);
    const [notification] = await notificationsOf(olive);
    const accept = await respond(notification!.id, { action: 'ACCEPT' }, olive);
    expect(accept.status).toBe(400);
    expect(await json(accept)).toEqual({
      message: 'A cheer or a comment is only dismissed: answer DECLINE.',
    });
    const dismiss = await respond(notification!.id, { action: 'DECLINE' }, olive);
    expect(dismiss.status).toBe(200);
    expect((await json(dismiss)).notification).toMatchObject({ type: 'CHEER', status: 'DECLINED' });
  });

  it('deleting the entry removes its notifications', async () => {
    const id = await entry();
    await cheer(id, mia);
    await comment(id, mia, 'Soon gone');
    expect(await notificationsOf(olive)).toHaveLength(2);
    const res = await vault.request(`/api/beverages/${id}`, { method: 'DELETE', cookie: olive });
    expect(res.status).toBe(204);
    expect(await notificationsOf(olive)).toEqual([]);
  });
});

describe('the activities recorded for federation', () => {
  const activities = async () =>
    (await vault.ctx.database.database
      .prepare(
        'SELECT type, beverage_id, payload FROM activities WHERE type NOT IN (?, ?, ?) ORDER BY id',
      )
      .all('Create', 'Update', 'Delete')) as {
      type: string;
      beverage_id: number | null;
      payload: string;
    }[];

  it('a cheer is a Like and a comment a Comment, kept; taking back and deleting record UndoLike and DeleteComment in the same transaction, forgotten once delivered', async () => {
    const id = await entry();
    await vault.ctx.outbox.idle();
    await vault.ctx.database.database.exec('DELETE FROM activities');
    const viewer = { id: ids.mia, role: 'USER' as const };
    const ref = { kind: 'local' as const, id };
    await vault.ctx.conversation.cheer(viewer, ref);
    const written = await vault.ctx.conversation.comment(viewer, ref, 'Hello');
    await vault.ctx.conversation.uncheer(viewer, ref);
    await vault.ctx.conversation.deleteComment(viewer, ref, written.id);
    const recorded = (await activities()).map((a) => [
      a.type,
      a.beverage_id,
      Object.keys(JSON.parse(a.payload)),
    ]);
    expect(recorded).toEqual([
      ['Like', id, ['cheerId']],
      ['Comment', id, ['commentId']],
      ['UndoLike', id, ['cheerId']],
      ['DeleteComment', id, ['commentId', 'authorId', 'audience', 'addresseeIds']],
    ]);
    await vault.ctx.outbox.idle();
    expect((await activities()).map((a) => a.type)).toEqual(['Like', 'Comment']);
  });
});
