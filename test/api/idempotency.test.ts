import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdTokenSchema } from '../../contract/tokens.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The `Idempotency-Key` header of writes: a request sent again with its key (an offline queue
 * whose answer was lost) answers the first result and is not applied twice.
 */
const START = Date.parse('2026-05-01T09:00:00Z');
const DAY = 24 * 60 * 60_000;
let clock = START;
let vault: TestVault;
let olive: { id: number; cookie: string };
let oscar: { id: number; cookie: string };
let photo: Buffer;

beforeAll(async () => {
  vault = createTestVault({ now: () => clock });
  const person = async (username: string) => {
    const user = await vault.createUser({ username });
    return { id: user.id, cookie: await vault.login(username, user.password) };
  };
  olive = await person('olive');
  oscar = await person('oscar');
  photo = await jpeg(64, 48);
});
afterAll(() => vault.close());

async function count(sql: string, id: number): Promise<number> {
  return (await vault.ctx.database.database.prepare(sql).pluck<number>().get(id))!;
}
const entriesOf = (userId: number) =>
  count('SELECT count(*) AS n FROM beverages WHERE user_id = ?', userId);
const commentsOn = (entryId: number) =>
  count('SELECT count(*) AS n FROM comments WHERE beverage_id = ?', entryId);

/** A new multipart body each time, as a browser's FormData (with a new random boundary). */
function entryForm(name: string): FormData {
  const form = new FormData();
  form.append('name', name);
  form.append('type', 'WHISKEY');
  form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'bottle.jpg');
  return form;
}

function logEntry(cookie: string, key: string, name: string) {
  return vault.request('/api/beverages', {
    method: 'POST',
    body: entryForm(name),
    cookie,
    headers: { 'idempotency-key': key },
  });
}

function comment(cookie: string, entryId: number, key: string, content: string) {
  return vault.request(`/api/beverages/${entryId}/comments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ content }),
    cookie,
  });
}

async function newEntry(userId: number): Promise<number> {
  const owner = (await vault.ctx.users.findById(userId))!;
  return (await vault.ctx.beverages.create(owner, { name: 'Talisker 10', type: 'WHISKEY' })).id;
}

describe('Idempotency-Key', () => {
  it('a multipart entry sent twice with one key makes one entry, and both answers are the same', async () => {
    const before = await entriesOf(olive.id);
    const first = await logEntry(olive.cookie, 'log-ardbeg-1', 'Ardbeg 10');
    const second = await logEntry(olive.cookie, 'log-ardbeg-1', 'Ardbeg 10');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const firstBody = await first.text();
    expect(await second.text()).toBe(firstBody);
    const { beverage } = JSON.parse(firstBody);
    expect(beverage.name).toBe('Ardbeg 10');
    expect(beverage.photoPath).toMatch(/^media\//);
    expect(await entriesOf(olive.id)).toBe(before + 1);
  });

  it('a JSON write sent twice with one key is applied once, and both answers are the same', async () => {
    const entryId = await newEntry(olive.id);
    const first = await comment(olive.cookie, entryId, 'comment-1', 'Peat and smoke');
    const second = await comment(olive.cookie, entryId, 'comment-1', 'Peat and smoke');
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await second.json()).toEqual(await first.json());
    expect(await commentsOn(entryId)).toBe(1);
  });

  it('the same key with a different body is a 409 and applies nothing', async () => {
    const entryId = await newEntry(olive.id);
    expect((await comment(olive.cookie, entryId, 'comment-2', 'Sweet')).status).toBe(201);
    const res = await comment(olive.cookie, entryId, 'comment-2', 'Sour');
    expect(res.status).toBe(409);
    expect(await json(res)).toEqual({
      message:
        'This Idempotency-Key was already used for a different request; send a new key with a new request',
    });
    expect(await commentsOn(entryId)).toBe(1);
  });

  it('the same key on another path is a 409', async () => {
    const a = await newEntry(olive.id);
    const b = await newEntry(olive.id);
    expect((await comment(olive.cookie, a, 'comment-3', 'Same words')).status).toBe(201);
    expect((await comment(olive.cookie, b, 'comment-3', 'Same words')).status).toBe(409);
  });

  it('a key still being processed answers 409 rather than running the request twice', async () => {
    const entryId = await newEntry(olive.id);
    // The first request with the key has been claimed but has not finished.
    await vault.ctx.idempotency.start(olive.id, 'comment-busy', 'the first request');
    const res = await comment(olive.cookie, entryId, 'comment-busy', 'Still there?');
    expect(res.status).toBe(409);
    expect((await json(res)).message).toBe(
      'A request with this Idempotency-Key is still being processed; try again once it has finished',
    );
    expect(await commentsOn(entryId)).toBe(0);
  });

  it('the same key by another user is independent', async () => {
    const entryId = await newEntry(olive.id);
    const mine = await comment(olive.cookie, entryId, 'shared-key', 'Lovely');
    const theirs = await comment(oscar.cookie, entryId, 'shared-key', 'Lovely');
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect((await json(theirs)).comment.id).not.toBe((await json(mine)).comment.id);
  });

  it('after 24 hours the key is new again', async () => {
    const entryId = await newEntry(olive.id);
    expect((await comment(olive.cookie, entryId, 'daily', 'Day one')).status).toBe(201);
    clock += DAY - 1;
    const replay = await comment(olive.cookie, entryId, 'daily', 'Day one');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    clock += 2;
    const again = await comment(olive.cookie, entryId, 'daily', 'Day one');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await commentsOn(entryId)).toBe(2);
  });

  it('keys older than 24 hours are pruned', async () => {
    const entryId = await newEntry(olive.id);
    expect((await comment(olive.cookie, entryId, 'to-prune', 'Old')).status).toBe(201);
    clock += DAY + 2 * 60_000;
    expect((await comment(olive.cookie, entryId, 'fresh', 'New')).status).toBe(201);
    const keys = (await vault.ctx.database.database
      .prepare('SELECT key FROM idempotency_keys WHERE user_id = ?')
      .all(olive.id)) as { key: string }[];
    expect(keys.map((k) => k.key)).toEqual(['fresh']);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['not ASCII', 'clé'],
  ])('a key that is %s is a 400 and applies nothing', async (_, key) => {
    const entryId = await newEntry(olive.id);
    const res = await comment(olive.cookie, entryId, key, 'Nope');
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      message: 'The Idempotency-Key must be 1 to 255 visible ASCII characters',
    });
    expect(await commentsOn(entryId)).toBe(0);
  });

  it('a key of 255 visible characters is accepted', async () => {
    const entryId = await newEntry(olive.id);
    const res = await comment(olive.cookie, entryId, '~'.repeat(255), 'Long key');
    expect(res.status).toBe(201);
  });

  it('a DELETE sent again answers the same 204 rather than 404', async () => {
    const entryId = await newEntry(olive.id);
    const remove = () =>
      vault.request(`/api/beverages/${entryId}`, {
        method: 'DELETE',
        cookie: olive.cookie,
        headers: { 'idempotency-key': `delete-${entryId}` },
      });
    const first = await remove();
    const second = await remove();
    expect(first.status).toBe(204);
    expect(second.status).toBe(204);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.text()).toBe('');
    const plain = await vault.request(`/api/beverages/${entryId}`, {
      method: 'DELETE',
      cookie: olive.cookie,
    });
    expect(plain.status).toBe(404);
  });

  it('a refusal (4xx) is kept and answered again', async () => {
    const first = await comment(olive.cookie, 999_999, 'comment-missing', 'Where?');
    const second = await comment(olive.cookie, 999_999, 'comment-missing', 'Where?');
    expect(first.status).toBe(404);
    expect(second.status).toBe(404);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
  });

  it('a body over the limit is still refused with 413', async () => {
    const entryId = await newEntry(olive.id);
    const res = await vault.request(`/api/beverages/${entryId}/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'too-big' },
      body: new ReadableStream({
        start(controller) {
          const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
          for (let i = 0; i < 20; i++) controller.enqueue(chunk);
          controller.close();
        },
      }),
      duplex: 'half',
      cookie: olive.cookie,
    } as RequestInit & { cookie: string });
    expect(res.status).toBe(413);
    // Nothing was claimed: the key may be used for a request that fits.
    expect((await comment(olive.cookie, entryId, 'too-big', 'Small')).status).toBe(201);
  });

  it('an import file sent twice with one key starts one import', async () => {
    const send = () =>
      vault.request('/api/imports', {
        method: 'POST',
        body: 'type,name\nWHISKEY,Lagavulin 16\n',
        headers: { 'content-type': 'application/octet-stream', 'idempotency-key': 'import-1' },
        cookie: oscar.cookie,
      });
    const before = await entriesOf(oscar.id);
    const first = await send();
    await vault.ctx.imports.idle();
    const second = await send();
    await vault.ctx.imports.idle();
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await json(second)).job.id).toBe((await json(first)).job.id);
    expect(await entriesOf(oscar.id)).toBe(before + 1);
  });

  it('works with an access token as well as a session', async () => {
    const created = await vault.postJson(
      '/api/tokens',
      { name: 'offline queue', scope: 'write' },
      olive.cookie,
    );
    expect(created.status).toBe(201);
    const { secret } = createdTokenSchema.parse(await json(created));
    const entryId = await newEntry(olive.id);
    const send = () =>
      vault.app.request(new URL(`/api/beverages/${entryId}/comments`, vault.origin).toString(), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${secret}`,
          'content-type': 'application/json',
          'idempotency-key': 'token-comment',
        },
        body: JSON.stringify({ content: 'By token' }),
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.json()).toEqual(await first.json());
    expect(await commentsOn(entryId)).toBe(1);
    // The key is the user's, whichever way they signed in: the session sees the same answer.
    const bySession = await comment(olive.cookie, entryId, 'token-comment', 'By token');
    expect(bySession.headers.get('idempotent-replayed')).toBe('true');
  });
});
