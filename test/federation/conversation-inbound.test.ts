import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentListSchema } from '../../contract/conversation.ts';
import { startFakeRemote, type FakeRemote, type Json } from '../helpers/fake-remote.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { insertRemoteFollower } from './entries-remote-followers.ts';

/**
 * Cheers and replies from Mastodon: Like, Undo(Like), a reply's Create, its Update and Delete,
 * in the JSON shapes Mastodon sends (its ActivityPub documentation), signed by a fake server's
 * real keys and posted to the real inboxes (personal and shared). Stored only from the entry's
 * audience (an accepted follower of its owner), shown as text through the API, and told to
 * the owner as CHEER and COMMENT notifications.
 */

const AS = 'https://www.w3.org/ns/activitystreams';
let vault: TestServer;
let masto: FakeRemote;
let alice: { id: number; role: 'USER' };
let cookie: string;
let bob: string;
let mallory: string;

beforeAll(async () => {
  vault = await startTestServer({ allowPrivateAddress: true });
  const row = await vault.createUser({
    username: 'alice',
    password: 'alice-password',
    activityPubEnabled: true,
  });
  alice = { id: row.id, role: 'USER' };
  masto = await startFakeRemote();
  bob = masto.addAccount('bob').id;
  mallory = masto.addAccount('mallory').id;
  await insertRemoteFollower(
    vault.ctx.database.database,
    await vault.ctx.actors.localActorId(alice.id),
    masto,
    'bob',
  );
  const res = await fetch(`${vault.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: vault.url },
    body: JSON.stringify({ username: 'alice', password: 'alice-password' }),
  });
  cookie = res.headers
    .getSetCookie()
    .find((c) => c.includes('vault_session='))!
    .split(';')[0]!;
});
afterAll(async () => {
  await Promise.all([vault?.close(), masto?.close()]);
});

async function entry(visibility: 'FOLLOWERS' | 'PRIVATE' = 'FOLLOWERS') {
  const created = await vault.ctx.beverages.create(alice, {
    type: 'BEER',
    name: 'Saison',
    visibility,
  });
  return { id: created.id, note: `${vault.url}/users/alice/entries/${created.id}` };
}

/** Posts as a fake account (the shared inbox unless told) and waits until it is handled. */
async function deliver(from: string, activity: Json, inbox = `${vault.url}/inbox`) {
  const res = await masto.post(from, inbox, activity);
  expect(res.status, res.body).toBe(202);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const federation = vault.ctx.federation.current()!;
    const depth = await federation.queue.getDepth();
    if (depth.queued === 0 && federation.queue.inFlight === 0) break;
    if (Date.now() > deadline) throw new Error('the federation queue did not settle');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await vault.ctx.outbox.idle();
}

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function api(path: string) {
  const res = await fetch(`${vault.url}${path}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

const cheerCount = async (id: number) =>
  ((await api(`/api/beverages/${id}`)) as { beverage: { cheerCount: number } }).beverage.cheerCount;

const comments = async (id: number) =>
  commentListSchema.parse(await api(`/api/beverages/${id}/comments`)).comments;

function notifications(type: 'CHEER' | 'COMMENT') {
  return vault.ctx.database.database
    .prepare<{ beverage_id: number; message: string | null }>(
      'SELECT beverage_id, message FROM notifications WHERE recipient_id = ? AND type = ?',
    )
    .all(alice.id, type);
}

const like = (actor: string, object: string, n: number) => ({
  '@context': AS,
  id: `${actor}#likes/${n}`,
  type: 'Like',
  actor,
  object,
});

function reply(actor: string, note: string, n: number, content: string) {
  const id = `${actor}/statuses/${n}`;
  return {
    '@context': [AS, { sensitive: 'as:sensitive' }],
    id: `${id}/activity`,
    type: 'Create',
    actor,
    published: '2026-11-20T10:00:00Z',
    to: [`${vault.url}/users/alice`],
    cc: [],
    object: {
      id,
      type: 'Note',
      summary: null,
      inReplyTo: note,
      published: '2026-11-20T10:00:00Z',
      url: `${masto.origin}/@bob/${n}`,
      attributedTo: actor,
      to: [`${vault.url}/users/alice`],
      cc: [],
      sensitive: false,
      content,
      contentMap: { en: content },
      tag: [{ type: 'Mention', href: `${vault.url}/users/alice`, name: '@alice@vault' }],
      attachment: [],
    },
  };
}

const MASTODON_REPLY =
  `<p><span class="h-card" translate="no"><a href="VAULT/@alice" class="u-url mention">@<span>alice</span></a></span> ` +
  `Lovely! <a href="https://x.example/y?a=1&amp;b=2" target="_blank" rel="nofollow noopener noreferrer">` +
  `<span class="invisible">https://</span><span class="">x.example/y?a=1&amp;b=2</span></a></p><p>&lt;b&gt;not bold&lt;/b&gt;</p>`;

describe('a Like from Mastodon', () => {
  it('is a cheer of its follower, counted and told to the owner; its Undo takes it back', async () => {
    const { id, note } = await entry();
    await deliver('bob', like(bob, note, 42), `${vault.url}/users/alice/inbox`);
    expect(
      await until(
        () => cheerCount(id),
        (n) => n === 1,
      ),
    ).toBe(1);
    expect(
      await until(
        () => notifications('CHEER'),
        (n) => n.length === 1,
      ),
    ).toEqual([{ beverage_id: id, message: null }]);
    // A replay changes nothing.
    await deliver('bob', like(bob, note, 42));
    expect(await cheerCount(id)).toBe(1);

    await deliver('bob', {
      '@context': AS,
      id: `${bob}#likes/42/undo`,
      type: 'Undo',
      actor: bob,
      object: like(bob, note, 42),
    });
    expect(
      await until(
        () => cheerCount(id),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(await notifications('CHEER')).toEqual([]);
  });

  it('is ignored from an actor who does not follow the owner, and for a PRIVATE entry', async () => {
    const { id, note } = await entry();
    await deliver('mallory', like(mallory, note, 7));
    const hidden = await entry('PRIVATE');
    await deliver('bob', like(bob, hidden.note, 8));
    // An Announce of a Note is ignored (followers-only entries are not boosted).
    await deliver('bob', {
      '@context': AS,
      id: `${bob}/statuses/9/activity`,
      type: 'Announce',
      actor: bob,
      object: note,
    });
    expect(await cheerCount(id)).toBe(0);
    expect(await cheerCount(hidden.id)).toBe(0);
    const cheers = vault.ctx.database.database.prepare('SELECT count(*) FROM cheers').pluck();
    expect(await cheers.get()).toBe(0);
    // The follower's own Like of the same entry is taken: only the refused ones were dropped.
    await deliver('bob', like(bob, note, 10));
    expect(
      await until(
        () => cheerCount(id),
        (n) => n === 1,
      ),
    ).toBe(1);
  });
});

describe('a reply from Mastodon', () => {
  it('is a comment as text with its links, told to the owner; its Update edits it and its Delete removes it', async () => {
    const { id, note } = await entry();
    await deliver('bob', reply(bob, note, 100, MASTODON_REPLY.replace('VAULT', vault.url)));
    const [comment] = await until(
      () => comments(id),
      (list) => list.length === 1,
    );
    expect(comment).toMatchObject({
      content: '@alice Lovely! https://x.example/y?a=1&b=2\n\n<b>not bold</b>',
      author: { username: null, handle: `@${masto.handle('bob')}` },
      canDelete: true,
    });
    expect(
      await until(
        () => notifications('COMMENT'),
        (n) => n.length === 1,
      ),
    ).toEqual([{ beverage_id: id, message: comment!.content }]);

    // Another actor's Update and Delete of it change nothing.
    const noteId = `${bob}/statuses/100`;
    const update = (actor: string, content: string) => ({
      '@context': AS,
      id: `${actor}#updates/1`,
      type: 'Update',
      actor,
      object: { ...reply(bob, note, 100, content).object, updated: '2026-11-20T11:00:00Z' },
    });
    const deletion = (actor: string) => ({
      '@context': AS,
      id: `${actor}#delete/100`,
      type: 'Delete',
      actor,
      object: { id: noteId, type: 'Tombstone', atomUri: noteId },
    });
    await deliver('mallory', update(mallory, '<p>Hijacked</p>'));
    await deliver('mallory', deletion(mallory));
    expect((await comments(id)).map((c) => c.content)).toEqual([comment!.content]);

    await deliver('bob', update(bob, '<p>Lovely, <em>really</em>.</p>'));
    expect(
      (
        await until(
          () => comments(id),
          (l) => l[0]?.content !== comment!.content,
        )
      )[0]?.content,
    ).toBe('Lovely, really.');
    await deliver('bob', deletion(bob), `${vault.url}/users/alice/inbox`);
    expect(
      await until(
        () => comments(id),
        (l) => l.length === 0,
      ),
    ).toEqual([]);
    expect(await notifications('COMMENT')).toEqual([]);
  });

  it('is ignored for a PRIVATE entry and from a non-follower', async () => {
    const hidden = await entry('PRIVATE');
    await deliver('bob', reply(bob, hidden.note, 200, '<p>Hi</p>'));
    const open = await entry();
    await deliver('mallory', reply(mallory, open.note, 201, '<p>Hi</p>'));
    expect(await comments(hidden.id)).toEqual([]);
    expect(await comments(open.id)).toEqual([]);
    // The follower's reply to the open entry is taken: only the refused ones were dropped.
    await deliver('bob', reply(bob, open.note, 202, '<p>Hi</p>'));
    expect(
      (
        await until(
          () => comments(open.id),
          (l) => l.length === 1,
        )
      ).map((c) => c.content),
    ).toEqual(['Hi']);
  });
});
