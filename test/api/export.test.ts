import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_CSV_COLUMNS, vaultExportSchema, type VaultExport } from '../../contract/export.ts';
import type { AppEnv } from '../../src/http/env.ts';
import { handleError } from '../../src/http/errors.ts';
import { exportRoutes } from '../../src/routes/export.ts';
import { unzip } from '../helpers/export-zip.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

let vault: TestVault;
let alice: string;
let bob: string;
let admin: string;
let aliceId: number;
let bobId: number;
let carolId: number;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice', fullName: 'Alice Archer' });
  const b = await vault.createUser({ username: 'bob', fullName: 'Bob Brewer' });
  const c = await vault.createUser({ username: 'carol', fullName: 'Carol Cooper' });
  const ad = await vault.createUser({ username: 'root_admin', role: 'ADMIN' });
  aliceId = a.id;
  bobId = b.id;
  carolId = c.id;
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  admin = await vault.login('root_admin', ad.password);
});
afterAll(() => vault.close());

async function create(cookie: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries({ type: 'WHISKEY', subtype: 'Bourbon', ...fields })) {
    form.append(k, v);
  }
  const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return (await json(res)).beverage as { id: number; photoPath: string | null };
}

async function share(cookie: string, entryId: number, userId: number) {
  const res = await vault.postJson(`/api/beverages/${entryId}/share`, { userId }, cookie);
  expect(res.status).toBeLessThan(300);
}

async function exportOf(cookie: string, query = '') {
  const res = await vault.request(`/api/export${query}`, { cookie });
  expect(res.status).toBe(200);
  const files = await unzip(new Uint8Array(await res.arrayBuffer()));
  const data: VaultExport = vaultExportSchema.parse(
    JSON.parse(files.get('entries.json')!.toString('utf8')),
  );
  const csv = parse(files.get('entries.csv')!, { bom: true, columns: true }) as Record<
    string,
    string
  >[];
  return { res, files, data, csv };
}

/** Notes as stored (a form's line breaks arrive as CRLF). */
const storedNotes = async (id: number) =>
  (await vault.ctx.database.database
    .prepare<{ notes: string }>('SELECT notes FROM beverages WHERE id = ?')
    .get(id))!.notes;

const storedFile = (photoPath: string) =>
  path.join(vault.config.uploadsDir, photoPath.slice('media/'.length));

describe('exporting my vault', () => {
  let pictured: { id: number; photoPath: string | null };
  let plain: { id: number };

  beforeAll(async () => {
    pictured = await create(alice, {
      name: 'Château Margaux',
      type: 'WINE',
      subtype: 'Cabernet Sauvignon',
      makerName: 'Château Margaux',
      rating: '5',
      notes: 'Cassis, cedar.\nLong, "silky" finish, with commas.',
      inCellar: 'true',
      photo: new Blob([new Uint8Array(await jpeg(640, 480))], { type: 'image/jpeg' }),
    });
    plain = await create(alice, {
      name: '=HYPERLINK("http://evil.example","click")',
      type: 'BEER',
      subtype: 'Stout',
      makerName: '@maker',
      notes: '-1+2',
      status: 'TO_TRY',
    });
    await share(alice, pictured.id, bobId);
    await share(alice, pictured.id, carolId);
    await create(bob, { name: "Bob's own bottle" });
  });

  it('answers a ZIP named for the user and the day, as an attachment', async () => {
    const { res, files } = await exportOf(alice);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="vault-alice-${day}.zip"`,
    );
    expect([...files.keys()]).toEqual([
      'entries.csv',
      'entries.json',
      'cellar.json',
      'tastings.json',
      `photos/${pictured.photoPath!.slice('media/'.length)}`,
    ]);
  });

  it('answers HEAD with the headers alone', async () => {
    const res = await vault.request('/api/export', { method: 'HEAD', cookie: alice });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="vault-alice-/);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('puts every field of each of my entries in entries.json, with the format and version', async () => {
    const { data } = await exportOf(alice);
    expect(data).toMatchObject({
      format: 'the-vault-export',
      version: 2,
      user: { username: 'alice', fullName: 'Alice Archer' },
    });
    expect(Date.now() - Date.parse(data.exportedAt)).toBeLessThan(60_000);
    expect(data.entries).toHaveLength(2);
    expect(data.entries[0]).toMatchObject({
      id: pictured.id,
      type: 'WINE',
      name: 'Château Margaux',
      subtype: 'Cabernet Sauvignon',
      maker: 'Château Margaux',
      status: 'TRIED',
      rating: 5,
      notes: await storedNotes(pictured.id),
      inCellar: true,
      photo: `photos/${pictured.photoPath!.slice('media/'.length)}`,
      sharedWith: ['bob', 'carol'],
    });
    expect(data.entries[1]).toMatchObject({
      id: plain.id,
      type: 'BEER',
      name: '=HYPERLINK("http://evil.example","click")',
      maker: '@maker',
      status: 'TO_TRY',
      rating: 0,
      inCellar: false,
      photo: null,
      sharedWith: [],
    });
    const stored = (await vault.ctx.database.database
      .prepare<{ c: number; u: number }>(
        'SELECT created_at c, updated_at u FROM beverages WHERE id = ?',
      )
      .get(pictured.id))!;
    expect(data.entries[0]!.createdAt).toBe(new Date(stored.c).toISOString());
    expect(data.entries[0]!.updatedAt).toBe(new Date(stored.u).toISOString());
  });

  it('puts the stored photo, byte for byte, under photos/', async () => {
    const { files, data } = await exportOf(alice);
    const photo = files.get(data.entries[0]!.photo!);
    expect(photo).toEqual(fs.readFileSync(storedFile(pictured.photoPath!)));
  });

  it('writes entries.csv with one row per entry and every column, readable by a spreadsheet', async () => {
    const { files, csv } = await exportOf(alice);
    expect(await storedNotes(pictured.id)).toMatch(/\n.*"silky".*,/);
    expect(files.get('entries.csv')!.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(Object.keys(csv[0]!)).toEqual([...EXPORT_CSV_COLUMNS]);
    expect(csv).toHaveLength(2);
    expect(csv[0]).toMatchObject({
      id: String(pictured.id),
      type: 'wine',
      name: 'Château Margaux',
      status: 'tried',
      rating: '5',
      notes: await storedNotes(pictured.id),
      in_cellar: 'yes',
      photo: `photos/${pictured.photoPath!.slice('media/'.length)}`,
      shared_with: 'bob carol',
    });
    expect(csv[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(csv[1]).toMatchObject({ status: 'to-try', in_cellar: 'no', photo: '', shared_with: '' });
  });

  it('prefixes CSV cells that a spreadsheet would run as a formula, and only in the CSV', async () => {
    const { csv, data } = await exportOf(alice);
    expect(csv[1]).toMatchObject({
      name: `'=HYPERLINK("http://evil.example","click")`,
      maker: "'@maker",
      notes: "'-1+2",
    });
    expect(data.entries[1]!.notes).toBe('-1+2');
  });

  it("leaves out other users' entries and entries shared with me", async () => {
    const bobs = await create(bob, { name: 'Shared by Bob' });
    await share(bob, bobs.id, aliceId);
    const { data } = await exportOf(alice);
    expect(data.entries.map((e) => e.name)).not.toContain('Shared by Bob');
    expect(data.entries.map((e) => e.name)).not.toContain("Bob's own bottle");
  });

  it('exports an entry whose photo file is missing without its photo', async () => {
    const gone = await create(alice, {
      name: 'Lost label',
      photo: new Blob([new Uint8Array(await jpeg(64, 64))], { type: 'image/jpeg' }),
    });
    fs.rmSync(storedFile(gone.photoPath!));
    const { data, files } = await exportOf(alice);
    expect(data.entries.find((e) => e.id === gone.id)?.photo).toBeNull();
    expect([...files.keys()].filter((name) => name.startsWith('photos/'))).toHaveLength(1);
    await vault.ctx.database.database.prepare('DELETE FROM beverages WHERE id = ?').run(gone.id);
  });
});

describe('who may see each entry', () => {
  it('exports the visibility of each entry and whether it goes to the fediverse', async () => {
    const person = await vault.createUser({ username: 'private_person' });
    const cookie = await vault.login('private_person', person.password);
    await create(cookie, { name: 'Everyone sees it' });
    await create(cookie, { name: 'Only mine', visibility: 'PRIVATE' });
    await create(cookie, { name: 'For followers', visibility: 'FOLLOWERS' });
    const { data, csv } = await exportOf(cookie);
    expect(data.entries.map((e) => [e.name, e.visibility, e.federated])).toEqual([
      ['Everyone sees it', 'MEMBERS', true],
      ['Only mine', 'PRIVATE', false],
      ['For followers', 'FOLLOWERS', true],
    ]);
    expect(csv.map((row) => [row.visibility, row.federated])).toEqual([
      ['members', 'yes'],
      ['private', 'no'],
      ['followers', 'yes'],
    ]);
  });
});

describe('who may export what', () => {
  it('refuses an anonymous request with 401 and a message', async () => {
    const res = await vault.request('/api/export');
    expect(res.status).toBe(401);
    expect(await json(res)).toEqual({ message: 'You need to sign in first.' });
  });

  it("refuses a user exporting another user's vault with 403", async () => {
    const res = await vault.request('/api/export?username=alice', { cookie: bob });
    expect(res.status).toBe(403);
    expect((await json(res)).message).toBe("Only an admin can export another user's vault");
  });

  it('lets a user name themselves', async () => {
    const { data } = await exportOf(bob, '?username=bob');
    expect(data.user.username).toBe('bob');
  });

  it("lets an admin export another user's vault, named for that user", async () => {
    await create(alice, { name: 'For the admin to see' });
    const { res, data } = await exportOf(admin, '?username=alice');
    expect(res.headers.get('content-disposition')).toMatch(/filename="vault-alice-/);
    expect(data.user.username).toBe('alice');
    expect(data.entries.map((e) => e.name)).toContain('For the admin to see');
  });

  it('answers 404 when the admin names nobody', async () => {
    const res = await vault.request('/api/export?username=nobody_here', { cookie: admin });
    expect(res.status).toBe(404);
    expect((await json(res)).message).toBe('No user named nobody_here');
  });

  it("lets an access token, even an admin's, export its owner's vault only", async () => {
    // The router as /api mounts it, behind a stand-in for the front door that has read an
    // admin's access token (the user is the token's owner; there is no session).
    const viaToken = new Hono<AppEnv>();
    viaToken.onError(handleError);
    viaToken.use(async (c, next) => {
      c.set('user', await vault.ctx.users.findByUsername('root_admin'));
      c.set('token', { id: 1, scope: 'read' });
      await next();
    });
    viaToken.route('/api/export', exportRoutes(vault.ctx));

    const other = await viaToken.request('/api/export?username=alice');
    expect(other.status).toBe(403);
    expect((await json(other)).message).toBe(
      'Access tokens cannot be used for this; sign in to the vault to do it',
    );
    const own = await viaToken.request('/api/export?username=root_admin');
    expect(own.status).toBe(200);
    expect(own.headers.get('content-disposition')).toMatch(/filename="vault-root_admin-/);
    await own.arrayBuffer();
  });
});

describe('vaults of every size', () => {
  it('exports an empty vault as a valid ZIP with a header row and no entries', async () => {
    const empty = await vault.createUser({ username: 'empty_one' });
    const { data, csv, files } = await exportOf(await vault.login('empty_one', empty.password));
    expect(data.entries).toEqual([]);
    expect(csv).toEqual([]);
    expect(files.get('entries.csv')!.toString('utf8')).toBe(
      `\uFEFF${EXPORT_CSV_COLUMNS.join(',')}\r\n`,
    );
  });

  it('exports every entry of a vault larger than one page, in id order', async () => {
    const many = await vault.createUser({ username: 'many_entries' });
    const db = vault.ctx.database.database;
    const insert = db.prepare(
      `INSERT INTO beverages (user_id, type, name, subtype, maker_name, rating, notes, status,
         in_cellar, created_at, updated_at) VALUES (?, 'BEER', ?, 'Stout', '', 3, '', 'TRIED', 0, ?, ?)`,
    );
    await db.transaction(async () => {
      for (let i = 0; i < 1234; i++) await insert.run(many.id, `Beer ${i}`, i, i);
    });
    const { data, csv } = await exportOf(await vault.login('many_entries', many.password));
    expect(data.entries).toHaveLength(1234);
    expect(csv).toHaveLength(1234);
    expect(data.entries.map((e) => e.name)).toEqual(
      Array.from({ length: 1234 }, (_, i) => `Beer ${i}`),
    );
    expect(csv.map((row) => Number(row.id))).toEqual(data.entries.map((e) => e.id));
  });
});
