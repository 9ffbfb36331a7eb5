import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityPageSchema } from '../../contract/social.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let alice: string;
let bob: string;
let carol: string;
let admin: string;
let ids: Record<'alice' | 'bob' | 'carol' | 'admin', number>;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  const c = await vault.createUser({ username: 'carol', fullName: 'Carol Cask' });
  const ad = await vault.createUser({ username: 'root_admin', fullName: 'Root', role: 'ADMIN' });
  ids = { alice: a.id, bob: b.id, carol: c.id, admin: ad.id };
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  carol = await vault.login('carol', c.password);
  admin = await vault.login('root_admin', ad.password);
});
afterAll(() => vault.close());

beforeEach(async () => {
  await vault.ctx.database.database.exec(
    'DELETE FROM follows; DELETE FROM feed_items; DELETE FROM beverages;',
  );
});

const db = () => vault.ctx.database.database;
const follow = async (id: number, cookie: string) =>
  expect((await vault.postJson(`/api/users/${id}/follow`, {}, cookie)).status).toBe(201);

async function log(cookie: string, name: string): Promise<number> {
  const form = new FormData();
  form.append('name', name);
  form.append('type', 'BEER');
  form.append('subtype', 'IPA');
  const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
  expect(res.status).toBe(201);
  return (await json(res)).beverage.id;
}

async function feed(cookie: string, query = '') {
  await vault.ctx.outbox.idle();
  const res = await vault.request(`/api/activity${query}`, { cookie });
  expect(res.status).toBe(200);
  return activityPageSchema.parse(await json(res));
}
const names = async (cookie: string, query = '') =>
  (await feed(cookie, query)).activities.map((a) => a.beverage.name);

describe('the activity feed', () => {
  it('shows entries newly logged by the people the caller follows, newest first', async () => {
    await follow(ids.alice, bob);
    await follow(ids.carol, bob);
    await log(alice, 'Pliny the Elder');
    await log(carol, 'Heady Topper');
    await log(bob, 'His own');
    await log(admin, 'Not followed');
    expect(await names(bob)).toEqual(['Heady Topper', 'Pliny the Elder']);
    expect(await names(alice)).toEqual([]);
  });

  it('carries the activity id, the actor, the entry as the reader sees it and when', async () => {
    await follow(ids.alice, bob);
    const entryId = await log(alice, 'Zombie Dust');
    const page = await feed(bob);
    expect(page.nextCursor).toBeNull();
    const [item] = page.activities;
    expect(item!.actor).toEqual({ fullName: 'Alice Archer', username: 'alice' });
    expect(item!.beverage).toMatchObject({
      id: entryId,
      name: 'Zombie Dust',
      userId: ids.alice,
      isOwner: false,
      ownerName: 'Alice Archer',
    });
    const activity = (await db()
      .prepare("SELECT id, created_at FROM activities WHERE type = 'Create' AND beverage_id = ?")
      .get(entryId)) as { id: number; created_at: number };
    expect(item!.id).toBe(activity.id);
    expect(item!.createdAt).toBe(new Date(activity.created_at).toISOString());
  });

  it('does not bring entries logged before the follow', async () => {
    await log(alice, 'Before');
    await vault.ctx.outbox.idle();
    await follow(ids.alice, bob);
    await log(alice, 'After');
    expect(await names(bob)).toEqual(['After']);
  });

  it('loses an entry when it is deleted', async () => {
    await follow(ids.alice, bob);
    const gone = await log(alice, 'Gone');
    await log(alice, 'Stays');
    await vault.ctx.outbox.idle();
    const res = await vault.request(`/api/beverages/${gone}`, { method: 'DELETE', cookie: alice });
    expect(res.status).toBe(204);
    expect(await names(bob)).toEqual(['Stays']);
  });

  it('loses an actor’s items on the next load after unfollowing them', async () => {
    await follow(ids.alice, bob);
    await follow(ids.carol, bob);
    await log(alice, 'From alice');
    await log(carol, 'From carol');
    expect(await names(bob)).toEqual(['From carol', 'From alice']);
    const res = await vault.request(`/api/users/${ids.alice}/follow`, {
      method: 'DELETE',
      cookie: bob,
    });
    expect(res.status).toBe(204);
    expect(await names(bob)).toEqual(['From carol']);
  });

  it('pages with an opaque cursor: 20 by default, up to 50, nextCursor null on the last page', async () => {
    await follow(ids.alice, bob);
    for (let i = 0; i < 55; i++) await log(alice, `Pour ${i}`);
    const first = await feed(bob);
    expect(first.activities).toHaveLength(20);
    expect(first.activities[0]!.beverage.name).toBe('Pour 54');
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const seen = first.activities.map((a) => a.beverage.name);
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await feed(bob, `?cursor=${cursor}&limit=50`);
      seen.push(...page.activities.map((a) => a.beverage.name));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(Array.from({ length: 55 }, (_, i) => `Pour ${54 - i}`));
    const all = await feed(bob, '?limit=50');
    expect(all.activities).toHaveLength(50);
    const exact = await feed(bob, `?limit=5&cursor=${all.nextCursor}`);
    expect(exact.activities).toHaveLength(5);
    expect(exact.nextCursor).toBeNull();
  });

  it('keeps entries of the same millisecond apart across pages', async () => {
    await follow(ids.alice, bob);
    for (let i = 0; i < 4; i++) await log(alice, `Same ${i}`);
    await vault.ctx.outbox.idle();
    await db().exec('UPDATE feed_items SET created_at = 1000');
    const seen: string[] = [];
    let query = '?limit=1';
    for (;;) {
      const page = await feed(bob, query);
      seen.push(...page.activities.map((a) => a.beverage.name));
      if (!page.nextCursor) break;
      query = `?limit=1&cursor=${page.nextCursor}`;
    }
    expect(seen).toEqual(['Same 3', 'Same 2', 'Same 1', 'Same 0']);
  });

  it('refuses a bad cursor or limit with 400 and a message', async () => {
    const bad: [string, string][] = [
      ['?limit=0', 'limit must be a whole number from 1 to 50'],
      ['?limit=51', 'limit must be a whole number from 1 to 50'],
      ['?limit=abc', 'limit must be a whole number from 1 to 50'],
      ['?limit=2.5', 'limit must be a whole number from 1 to 50'],
      ['?cursor=nonsense', 'The cursor is not valid; start again from the first page.'],
      [
        `?cursor=${Buffer.from('1:0').toString('base64url')}`,
        'The cursor is not valid; start again from the first page.',
      ],
      [
        `?cursor=${Buffer.from('1:2').toString('base64')}==`,
        'The cursor is not valid; start again from the first page.',
      ],
      [`?cursor=${'A'.repeat(500)}`, 'The cursor is not valid; start again from the first page.'],
    ];
    for (const [query, message] of bad) {
      const res = await vault.request(`/api/activity${query}`, { cookie: bob });
      expect(res.status, query).toBe(400);
      expect(await json(res)).toEqual({ message });
    }
  });

  it('is each user’s own: an admin sees only whom they follow', async () => {
    await follow(ids.alice, bob);
    await log(alice, 'For bob');
    expect(await names(admin)).toEqual([]);
    await follow(ids.alice, admin);
    await log(alice, 'For both');
    expect(await names(admin)).toEqual(['For both']);
    expect(await names(bob)).toEqual(['For both', 'For bob']);
  });

  it('is refused to anonymous requests with 401', async () => {
    const res = await vault.request('/api/activity');
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: 'You need to sign in first.' });
  });
});

describe('fan-out', () => {
  it('delivers one item per local follower, once, even when delivered again', async () => {
    await follow(ids.alice, bob);
    await follow(ids.alice, carol);
    await log(alice, 'Shared pour');
    await vault.ctx.outbox.idle();
    const activity = (await db()
      .prepare("SELECT id FROM activities WHERE type = 'Create' ORDER BY id DESC")
      .pluck()
      .get()) as number;
    await db()
      .prepare('INSERT INTO outbox (activity_id, next_attempt_at, created_at) VALUES (?, 0, 0)')
      .run(activity);
    vault.ctx.outbox.start();
    await vault.ctx.outbox.idle();
    const rows = await db()
      .prepare('SELECT recipient_id FROM feed_items WHERE activity_id = ? ORDER BY recipient_id')
      .pluck()
      .all(activity);
    expect(rows).toEqual([ids.bob, ids.carol].sort((a, b) => a - b));
    expect(await names(carol)).toEqual(['Shared pour']);
  });
});
