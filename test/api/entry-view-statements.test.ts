import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beveragePageSchema } from '../../contract/beverages.ts';
import { activityPageSchema } from '../../contract/social.ts';
import type { IncomingEntry } from '../../src/remote-entries/service.ts';
import { json } from '../helpers/json.ts';
import { recordStatements } from '../helpers/statements.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

// An answer with many entries costs the statements an answer with one costs: the entry views
// read the conversation counts of a whole batch in one statement per kind of entry
// (src/beverages/entry-view.ts), and the entry readers read the bottle and tasting counts in
// the statement of the rows. Each entry below has them all: a bottle, a tasting, a cheer and a
// comment, a share of the first one; the feed holds its entries, their tastings and entries
// received from a remote vault.

const ACTOR = 'https://other-vault.example/users/rémy';
let statements: ReturnType<typeof recordStatements>;
let vault: TestVault;
let alice: string;
let aliceId: number;
let bob: string;
let carolId: number;
let remoteActorId: number;
let logged = 0;

beforeAll(async () => {
  statements = recordStatements();
  // A clock that stands still: nothing a request does depends on how long the test took (a
  // session is touched once a minute, src/auth/sessions.ts).
  const at = Date.parse('2026-03-01T12:00:00Z');
  vault = createTestVault({ now: () => at });
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob' });
  const c = await vault.createUser({ username: 'carol' });
  aliceId = a.id;
  carolId = c.id;
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  expect((await vault.postJson(`/api/users/${aliceId}/follow`, {}, bob)).status).toBe(201);
  // Bob follows an account of another vault, whose entries are stored as the inbox does.
  remoteActorId = await vault.ctx.actors.saveRemote(
    {
      uri: ACTOR,
      inboxUrl: `${ACTOR}/inbox`,
      sharedInboxUrl: null,
      handle: '@remy@other-vault.example',
      displayName: 'Rémy',
      summary: '',
      avatarUrl: null,
    },
    at,
  );
  await vault.ctx.database.database
    .prepare(
      `INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)`,
    )
    .run(await vault.ctx.actors.localActorId(b.id), remoteActorId, at);
});
afterAll(async () => {
  await vault.close();
  statements.restore();
});

async function ok(res: Response | Promise<Response>, status = 201): Promise<void> {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(status);
}

/** `n` more entries of Alice's with everything counted, and as many received from Rémy. */
async function addEntries(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    logged++;
    const entry = await vault.logEntry(alice, { name: `Wine ${logged}`, type: 'WINE' });
    const base = `/api/beverages/${entry.id}`;
    await ok(vault.postJson(`${base}/bottles`, { quantity: 2 }, alice));
    await ok(vault.postJson(`${base}/tastings`, { rating: 4, notes: 'Again' }, alice));
    await ok(vault.request(`${base}/cheer`, { method: 'POST', cookie: bob }), 200);
    await ok(vault.postJson(`${base}/comments`, { content: 'Santé' }, bob));
    if (logged === 1) await ok(vault.postJson(`${base}/share`, { userId: carolId }, alice), 200);
    const received: IncomingEntry = {
      noteUri: `${ACTOR}/entries/${logged}`,
      type: 'BEER',
      name: `Beer ${logged}`,
      subtype: '',
      makerName: '',
      rating: 3,
      notes: '',
      status: 'TRIED',
      publishedAt: new Date('2026-02-01T10:00:00Z'),
      updatedAt: new Date('2026-02-01T10:00:00Z'),
      photoUrl: null,
    };
    expect(await vault.ctx.remoteEntries.store(remoteActorId, received, undefined)).toBe('stored');
  }
  await vault.ctx.outbox.idle();
}

/** The statements of each answer with entries, and how many entries each held. */
async function measure() {
  const sizes: Record<string, number> = {};
  const get = async (name: string, path: string, cookie: string) => {
    let size = 0;
    const ran = await statements.during(async () => {
      const res = await vault.request(path, { cookie });
      expect(res.status).toBe(200);
      const body = await json(res);
      size = path.startsWith('/api/activity')
        ? activityPageSchema.parse(body).activities.length
        : beveragePageSchema.parse(body).beverages.length;
    });
    sizes[name] = size;
    return ran;
  };
  const ran = {
    own: await get('own', '/api/beverages', alice),
    another: await get('another', `/api/beverages?userId=${aliceId}`, bob),
    feed: await get('feed', '/api/activity?limit=50', bob),
  };
  return { ran, sizes };
}

describe('the entries of an answer', () => {
  it('cost the same statements for one entry as for many', async () => {
    await addEntries(1);
    const one = await measure();
    expect(one.sizes).toEqual({ own: 1, another: 1, feed: 3 });
    await addEntries(12);
    const many = await measure();
    expect(many.sizes).toEqual({ own: 13, another: 13, feed: 39 });

    // The same statements, with as many parameters as ids where ids are bound one by one.
    const shape = (ran: Record<string, string[]>) =>
      Object.fromEntries(
        Object.entries(ran).map(([name, sqls]) => [
          name,
          sqls.map((sql) => sql.replace(/\(\?(,\?)*\)/g, '(?…)')),
        ]),
      );
    expect(shape(many.ran)).toEqual(shape(one.ran));
    // The conversation counts: one statement for a list, one per kind of entry for the feed.
    const countStatements = (ran: string[]) => ran.filter((sql) => sql.includes('AS cheer_count'));
    expect(countStatements(many.ran.own)).toHaveLength(1);
    expect(countStatements(many.ran.another)).toHaveLength(1);
    expect(countStatements(many.ran.feed)).toHaveLength(2);
  });
});
