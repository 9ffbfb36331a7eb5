import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createdDomainBlockSchema,
  domainBlockListSchema,
  domainBlockSchema,
} from '../../contract/domain-blocks.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let admin: string;
let alice: string;
let aliceUserId: number;

beforeAll(async () => {
  vault = createTestVault({ origin: 'https://vault.example' });
  const root = await vault.createUser({ username: 'root', role: 'ADMIN' });
  const a = await vault.createUser({ username: 'alice', activityPubEnabled: true });
  aliceUserId = a.id;
  admin = await vault.login('root', root.password);
  alice = await vault.login('alice', a.password);
});
afterAll(() => vault.close());

const db = () => vault.ctx.database.database;
const blockCount = () => db().prepare('SELECT count(*) FROM domain_blocks').pluck().get();
const block = (body: unknown, cookie = admin) => vault.postJson('/api/domain-blocks', body, cookie);
const list = async () => {
  const res = await vault.request('/api/domain-blocks', { cookie: admin });
  expect(res.status).toBe(200);
  return domainBlockListSchema.strict().parse(await res.json()).domainBlocks;
};

describe('who may manage blocked servers', () => {
  it('refuses a signed-in user who is not an admin with 403 and a message, changing nothing', async () => {
    const before = await blockCount();
    for (const res of [
      await vault.request('/api/domain-blocks', { cookie: alice }),
      await block({ domain: 'spam.example' }, alice),
      await vault.request('/api/domain-blocks/1', { method: 'DELETE', cookie: alice }),
    ]) {
      expect(res.status).toBe(403);
      expect((await json(res)).message).toMatch(/admin/i);
    }
    expect(await blockCount()).toBe(before);
  });

  it('refuses an anonymous caller with 401', async () => {
    const res = await vault.request('/api/domain-blocks');
    expect(res.status).toBe(401);
  });
});

describe('blocking a server', () => {
  it('stores the host in lowercase ASCII and answers it in the contract shape', async () => {
    const res = await block({ domain: '  Spam.EXAMPLE. ', note: ' Sent 500 notes ' });
    expect(res.status).toBe(201);
    const { domainBlock } = createdDomainBlockSchema.strict().parse(await res.json());
    expect(domainBlock).toMatchObject({ domain: 'spam.example', note: 'Sent 500 notes' });
    const idn = await block({ domain: 'Bücher.example:8443' });
    expect(idn.status).toBe(201);
    expect((await json(idn)).domainBlock.domain).toBe('xn--bcher-kva.example:8443');
    const ipv6 = await block({ domain: '[2001:DB8::1]:443' });
    expect((await json(ipv6)).domainBlock.domain).toBe('[2001:db8::1]:443');
  });

  it.each([
    ['a URL', 'https://spam.example/'],
    ['a handle', '@someone@spam.example'],
    ['a path', 'spam.example/users'],
    ['a wildcard', '*.spam.example'],
    ['an empty text', '   '],
    ['a port out of range', 'spam.example:70000'],
    ['a label with an underscore', 'spam_site.example'],
    ['words', 'not a host'],
  ])('refuses %s with 400 and says what to enter', async (_what, domain) => {
    const before = await blockCount();
    const res = await block({ domain });
    expect(res.status).toBe(400);
    expect((await json(res)).message).toMatch(/host name/);
    expect(await blockCount()).toBe(before);
  });

  it("refuses the vault's own host, with or without its port, with 400", async () => {
    for (const domain of ['vault.example', 'VAULT.example:443']) {
      const res = await block({ domain });
      expect(res.status).toBe(400);
      expect((await json(res)).message).toBe(
        `${domain.toLowerCase()} is this vault's own address; it cannot be blocked.`,
      );
    }
    // Another port of the same host is another server.
    expect((await block({ domain: 'vault.example:8443' })).status).toBe(201);
  });

  it('refuses a missing domain, a note longer than 500 characters and a second block of one host', async () => {
    expect((await block({ note: 'x' })).status).toBe(400);
    const long = await block({ domain: 'long.example', note: 'x'.repeat(501) });
    expect(long.status).toBe(400);
    expect((await json(long)).message).toMatch(/500 characters/);
    const again = await block({ domain: 'SPAM.example' });
    expect(again.status).toBe(409);
    expect((await json(again)).message).toBe('spam.example is blocked already.');
  });

  it('lists every block by domain with id, note and creation time', async () => {
    const blocks = await list();
    expect(blocks.map((b) => b.domain)).toEqual([
      '[2001:db8::1]:443',
      'spam.example',
      'vault.example:8443',
      'xn--bcher-kva.example:8443',
    ]);
    for (const b of blocks) expect(() => domainBlockSchema.strict().parse(b)).not.toThrow();
    expect(Date.parse(blocks[1]!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('lifting a block', () => {
  it('deletes it with 204; the matcher forgets it at once; a second delete is a 404', async () => {
    const target = (await list()).find((b) => b.domain === 'vault.example:8443')!;
    const matcher = vault.ctx.domainBlocks.matcher;
    expect(matcher.blocksUrl('https://vault.example:8443/users/x')).toBe(true);
    const res = await vault.request(`/api/domain-blocks/${target.id}`, {
      method: 'DELETE',
      cookie: admin,
    });
    expect(res.status).toBe(204);
    expect(matcher.blocksUrl('https://vault.example:8443/users/x')).toBe(false);
    expect((await list()).map((b) => b.domain)).not.toContain('vault.example:8443');
    const again = await vault.request(`/api/domain-blocks/${target.id}`, {
      method: 'DELETE',
      cookie: admin,
    });
    expect(again.status).toBe(404);
    expect((await json(again)).message).toBe('No such blocked server.');
  });

  it('refuses an id that is not a positive integer with 400', async () => {
    const res = await vault.request('/api/domain-blocks/abc', { method: 'DELETE', cookie: admin });
    expect(res.status).toBe(400);
  });
});

describe('what a block matches', () => {
  it('covers every port of a host given without one, and only the given port otherwise', () => {
    const matcher = vault.ctx.domainBlocks.matcher;
    expect(matcher.blocksUrl('https://spam.example/users/a')).toBe(true);
    expect(matcher.blocksUrl('http://SPAM.example:8080/users/a')).toBe(true);
    expect(matcher.blocksUrl('https://sub.spam.example/users/a')).toBe(false);
    expect(matcher.blocksUrl('https://xn--bcher-kva.example:8443/a')).toBe(true);
    expect(matcher.blocksUrl('https://bücher.example:8443/a')).toBe(true);
    expect(matcher.blocksUrl('https://xn--bcher-kva.example/a')).toBe(false);
    expect(matcher.blocksUrl('https://[2001:db8::1]/a')).toBe(true); // 443, the default
    expect(matcher.blocksUrl('http://[2001:db8::1]/a')).toBe(false);
  });
});

describe('the effects of blocking a server', () => {
  it("ends the follows both ways with the server's actors and removes their received entries", async () => {
    const t = Date.now();
    const addActor = async (uri: string) =>
      (await db()
        .prepare(
          `INSERT INTO actors (kind, uri, inbox_url, display_name, handle, created_at, updated_at)
           VALUES ('remote', ?, ?, 'x', '@x@h', ?, ?) RETURNING id`,
        )
        .pluck()
        .get(uri, `${uri}/inbox`, t, t)) as number;
    const followRow = (follower: number, followed: number) =>
      db()
        .prepare(
          `INSERT INTO follows (follower_id, followed_id, state, activity_uri, created_at)
           VALUES (?, ?, 'ACCEPTED', ?, ?)`,
        )
        .run(follower, followed, `https://x/${follower}-${followed}`, t);
    const me = await vault.ctx.actors.localActorId(aliceUserId);
    const hostile = await addActor('https://hostile.example:4443/users/h');
    const friend = await addActor('https://friendly.example/users/f');
    for (const them of [hostile, friend]) {
      await followRow(me, them);
      await followRow(them, me);
    }
    const entry = (actorId: number, n: number) =>
      vault.ctx.remoteEntries.store(
        actorId,
        {
          noteUri: `https://x.example/notes/${actorId}-${n}`,
          type: 'BEER',
          name: 'Pils',
          subtype: 'Pilsner',
          makerName: '',
          rating: 3,
          notes: '',
          status: 'TRIED',
          publishedAt: new Date(t),
          updatedAt: new Date(t),
          photoUrl: null,
        },
        undefined,
      );
    await entry(hostile, 1);
    await entry(hostile, 2);
    await entry(friend, 1);
    const follows = (actorId: number) =>
      db()
        .prepare('SELECT count(*) FROM follows WHERE follower_id = ? OR followed_id = ?')
        .pluck()
        .get(actorId, actorId);
    const entries = (actorId: number) =>
      db().prepare('SELECT count(*) FROM remote_entries WHERE actor_id = ?').pluck().get(actorId);
    expect([await follows(hostile), await entries(hostile)]).toEqual([2, 2]);

    expect((await block({ domain: 'hostile.example' })).status).toBe(201);

    expect([await follows(hostile), await entries(hostile)]).toEqual([0, 0]);
    expect([await follows(friend), await entries(friend)]).toEqual([2, 1]);
    const feedOfHostile = await db()
      .prepare('SELECT count(*) FROM feed_items WHERE actor_id = ?')
      .pluck()
      .get(hostile);
    expect(feedOfHostile).toBe(0);
    // Nothing was sent to the blocked server: no activity was recorded for it.
    const outbox = await db().prepare('SELECT count(*) FROM outbox').pluck().get();
    expect(outbox).toBe(0);
  });
});
