import fs from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importJobResponseSchema,
  importReportSchema,
  type ImportJob,
} from '../../contract/imports.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

const samples = path.join(import.meta.dirname, '..', 'imports', 'samples');
const sample = (name: string) => fs.readFileSync(path.join(samples, name));

let vault: TestVault;
let alice: string;
let bob: string;
let carol: string;
/** Activities recorded before any import (Carol's Follow). */
let activitiesBefore: number;

beforeAll(async () => {
  vault = createTestVault();
  const a = await vault.createUser({ username: 'alice' });
  const b = await vault.createUser({ username: 'bob' });
  const c = await vault.createUser({ username: 'carol' });
  alice = await vault.login('alice', a.password);
  bob = await vault.login('bob', b.password);
  carol = await vault.login('carol', c.password);
  // Carol follows Bob: Bob's imported entries must not reach her feed.
  const follow = await vault.postJson(`/api/users/${b.id}/follow`, {}, carol);
  expect(follow.status).toBe(201);
  activitiesBefore = await count('activities');
});
afterAll(() => vault.close());

function upload(cookie: string | undefined, body: Uint8Array | string, query = '') {
  return vault.request(`/api/imports${query}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream' },
    ...(cookie ? { cookie } : {}),
  });
}

/** Uploads a file, waits for its job to end, and answers the report. */
async function importFile(cookie: string, body: Uint8Array | string, query = '') {
  const res = await upload(cookie, body, query);
  expect(res.status).toBe(202);
  const { job } = importJobResponseSchema.parse(await json(res));
  await vault.ctx.imports.idle();
  const report = await vault.request(`/api/imports/${job.id}/report`, { cookie });
  expect(report.status).toBe(200);
  return importReportSchema.parse(await json(report));
}

async function entriesOf(cookie: string) {
  const res = await vault.request('/api/beverages?limit=200', { cookie });
  return (await json(res)).beverages as {
    id: number;
    name: string;
    subtype: string;
    makerName: string;
    rating: number;
    status: string;
    inCellar: boolean;
    notes: string;
    photoPath: string | null;
    createdAt: string;
  }[];
}

const count = async (table: string) =>
  (await vault.ctx.database.database
    .prepare<{ n: number }>(`select count(*) as n from ${table}`)
    .get())!.n;

/** What a refused upload must leave as it was: entries, activities, jobs, files. */
async function snapshot() {
  const dir = path.join(vault.config.dataDir, 'imports');
  return {
    entries: await count('beverages'),
    activities: await count('activities'),
    files: fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [],
  };
}

describe('Importing a CSV file', () => {
  it('is refused to anyone not signed in', async () => {
    const res = await upload(undefined, sample('generic.csv'));
    expect(res.status).toBe(401);
  });

  it('runs in the background and ends with a report of every row: imported, duplicate, refused', async () => {
    const report = await importFile(bob, sample('untappd.csv'), '?fileName=untappd.csv');
    expect(report.job).toMatchObject({
      format: 'untappd',
      fileName: 'untappd.csv',
      status: 'DONE',
      total: 7,
      processed: 7,
      imported: 5,
      duplicates: 1,
      refused: 1,
    });
    expect(report.rows.map((r) => r.outcome)).toEqual([
      'IMPORTED',
      'IMPORTED',
      'DUPLICATE',
      'IMPORTED',
      'IMPORTED',
      'IMPORTED',
      'REFUSED',
    ]);
    expect(report.rows[2]).toMatchObject({ row: 3, name: 'Atak Chmielu' });
    expect(report.rows[2]!.reason).toMatch(/same name, maker and subtype/);
    expect(report.rows[6]).toMatchObject({ row: 7, reason: 'The row has no name' });
  });

  it("puts the entries in the importer's vault with the file's dates", async () => {
    const entries = await entriesOf(bob);
    const atak = entries.find((e) => e.name === 'Atak Chmielu');
    expect(atak).toMatchObject({ subtype: 'IPA', makerName: 'Browar Pinta', rating: 4 });
    expect(atak!.createdAt).toBe('2024-03-01T20:12:00.000Z');
    expect(entries).toHaveLength(5);
  });

  it('announces nothing: no activity for followers, the feed or remote servers', async () => {
    expect(await count('activities')).toBe(activitiesBefore);
    const feed = await vault.request('/api/activity', { cookie: carol });
    const body = JSON.stringify(await json(feed));
    expect(body).not.toContain('Atak Chmielu');
  });

  it('counts a second import of the same file as duplicates of the entries already there', async () => {
    const report = await importFile(bob, sample('untappd.csv'));
    expect(report.job).toMatchObject({ imported: 0, duplicates: 6, refused: 1 });
    expect(await entriesOf(bob)).toHaveLength(5);
  });

  it('shows a job to its owner only', async () => {
    const { jobs } = (await json(await vault.request('/api/imports', { cookie: bob }))) as {
      jobs: ImportJob[];
    };
    expect(jobs.length).toBe(2);
    const other = await vault.request(`/api/imports/${jobs[0]!.id}`, { cookie: alice });
    expect(other.status).toBe(404);
    expect(await json(other)).toEqual({ message: 'Import not found' });
    const mine = await vault.request(`/api/imports/${jobs[0]!.id}`, { cookie: bob });
    expect(mine.status).toBe(200);
  });

  it('takes one import at a time from a user: a second one meanwhile is a 409', async () => {
    const gina = await vault.createUser({ username: 'gina' });
    const cookie = await vault.login('gina', gina.password);
    const rows = Array.from({ length: 20_000 }, (_, i) => `beer,Pint ${i}`);
    const csv = `type,name\n${rows.join('\n')}\n`;
    const answers = await Promise.all([upload(cookie, csv), upload(cookie, csv)]);
    expect(answers.map((r) => r.status).sort()).toEqual([202, 409]);
    const refusal = answers.find((r) => r.status === 409)!;
    expect((await json(refusal)).message).toMatch(/still running/);
    await vault.ctx.imports.idle();
    expect(await count('beverages where user_id = ' + gina.id)).toBe(20_000);
  });

  it("keeps a user's 20 latest imports and deletes older ones with their reports", async () => {
    const frank = await vault.createUser({ username: 'frank' });
    const cookie = await vault.login('frank', frank.password);
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) {
      const report = await importFile(cookie, `type,name\nbeer,Round ${i}\n`);
      ids.push(report.job.id);
    }
    const { jobs } = (await json(await vault.request('/api/imports', { cookie }))) as {
      jobs: ImportJob[];
    };
    expect(jobs).toHaveLength(20);
    const dirs = fs.readdirSync(path.join(vault.config.dataDir, 'imports'));
    expect(dirs).not.toContain(ids[0]);
    expect(dirs).not.toContain(ids[1]);
    expect(dirs).toContain(ids[2]);
    expect((await vault.request(`/api/imports/${ids[0]}`, { cookie })).status).toBe(404);
  });

  it('reads every supported format by its columns', async () => {
    const vivino = await importFile(alice, sample('vivino.csv'));
    expect(vivino.job).toMatchObject({ format: 'vivino', imported: 5, refused: 0 });
    const cellar = await importFile(alice, sample('cellartracker-inventory.csv'));
    expect(cellar.job).toMatchObject({ format: 'cellartracker', imported: 4 });
    const generic = await importFile(alice, sample('generic.csv'));
    expect(generic.job).toMatchObject({ format: 'generic', imported: 4, refused: 2 });
    const inCellar = (await entriesOf(alice)).filter((e) => e.inCellar).map((e) => e.name);
    expect(inCellar).toContain('Ridge Monte Bello 2017');
  });
});

describe('Who sees imported entries', () => {
  it("is decided by the importer's default visibility, as for entries logged by hand", async () => {
    const erin = await vault.createUser({ username: 'erin' });
    await vault.ctx.users.update(erin.id, { defaultVisibility: 'PRIVATE' });
    const cookie = await vault.login('erin', erin.password);
    const report = await importFile(cookie, sample('vivino.csv'));
    expect(report.job.imported).toBe(5);
    const settings = await vault.ctx.database.database
      .prepare('select distinct visibility, federated from beverages where user_id = ?')
      .all(erin.id);
    expect(settings).toEqual([{ visibility: 'PRIVATE', federated: 0 }]);
    const seenByCarol = await vault.request(`/api/beverages?userId=${erin.id}`, { cookie: carol });
    expect((await json(seenByCarol)).beverages).toEqual([]);
  });
});

describe('A file that cannot be imported', () => {
  async function refused(body: Uint8Array | string, query = '') {
    const before = await snapshot();
    const res = await upload(alice, body, query);
    const message = ((await json(res)) as { message: string }).message;
    expect(await snapshot()).toEqual(before);
    return { status: res.status, message };
  }

  it('is refused when it is neither CSV nor ZIP', async () => {
    const garbage = Buffer.alloc(4096);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919) % 256;
    const { status, message } = await refused(garbage);
    expect(status).toBe(400);
    expect(message).toMatch(/neither a CSV file nor a ZIP/);
  });

  it('is refused when its columns are not those of any known format', async () => {
    const { status, message } = await refused('colour,size\nred,big\n');
    expect(status).toBe(400);
    expect(message).toMatch(/columns of this file were not recognized/);
  });

  it('is refused when it breaks off in the middle of a quoted cell', async () => {
    const { status, message } = await refused('type,name\nwine,"Never closed\n');
    expect(status).toBe(400);
    expect(message).toMatch(/could not be read/);
  });

  it('is refused with 413 when it is larger than 50 MB, unread', async () => {
    const { status, message } = await refused(new Uint8Array(50 * 1024 * 1024 + 1));
    expect(status).toBe(413);
    expect(message).toMatch(/too large/);
  });

  it('is refused when it is nearly 50 MB of text that is no table, without reading it all', async () => {
    const garbage = Buffer.alloc(49 * 1024 * 1024);
    for (let i = 0; i < garbage.length; i++) garbage[i] = 33 + ((i * 7919) % 90);
    const { status, message } = await refused(garbage);
    expect(status).toBe(400);
    expect(message).toMatch(/could not be read|not recognized/);
  });

  it('is refused with 413 when a body without a declared length goes past 50 MB', async () => {
    const before = await snapshot();
    const chunk = new Uint8Array(1024 * 1024).fill(65);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 52) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await vault.request('/api/imports', {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/csv', 'transfer-encoding': 'chunked' },
      cookie: alice,
      duplex: 'half',
    } as RequestInit & { cookie: string });
    expect(res.status).toBe(413);
    expect(await snapshot()).toEqual(before);
  });

  it('is refused when it is empty or has no rows', async () => {
    expect((await refused('')).status).toBe(400);
    expect((await refused('type,name,subtype\n')).message).toMatch(/no rows/);
  });
});

/** A ZIP built with yazl, in memory. */
function zip(files: Record<string, Buffer>): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) z.addBuffer(content, name);
  z.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

function exportJson(entries: object[]) {
  return Buffer.from(
    JSON.stringify({
      format: 'the-vault-export',
      version: 1,
      exportedAt: '2026-11-01T10:00:00.000Z',
      user: { username: 'someone', fullName: 'Some One' },
      entries,
    }),
  );
}

const exported = (over: object = {}) => ({
  id: 1,
  type: 'WINE',
  name: 'Exported Wine',
  subtype: 'Merlot',
  maker: 'Somewhere',
  status: 'TRIED',
  rating: 4,
  notes: '',
  inCellar: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
  photo: null,
  sharedWith: [],
  ...over,
});

describe("Importing the vault's own export", () => {
  it('brings back every entry with its photo, dates and cellar flag', async () => {
    const photo = await jpeg(320, 240);
    const form = new FormData();
    form.append('type', 'BEER');
    form.append('name', 'Exported Porter');
    form.append('subtype', 'Porter');
    form.append('makerName', 'Dark Works');
    form.append('inCellar', 'true');
    form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }));
    const created = await vault.request('/api/beverages', {
      method: 'POST',
      body: form,
      cookie: bob,
    });
    expect(created.status).toBe(201);
    await vault.ctx.database.database
      .prepare(`update beverages set visibility = 'PRIVATE', federated = 0 where name = ?`)
      .run('Exported Porter');
    const exportRes = await vault.request('/api/export', { cookie: bob });
    expect(exportRes.status).toBe(200);
    const bytes = new Uint8Array(await exportRes.arrayBuffer());

    const fresh = await vault.createUser({ username: 'dave' });
    const dave = await vault.login('dave', fresh.password);
    const report = await importFile(dave, bytes);
    expect(report.job).toMatchObject({ format: 'vault', status: 'DONE', imported: 6, refused: 0 });
    const entries = await entriesOf(dave);
    const porter = entries.find((e) => e.name === 'Exported Porter')!;
    expect(porter).toMatchObject({ subtype: 'Porter', makerName: 'Dark Works', inCellar: true });
    expect(porter.photoPath).toMatch(/^media\/[a-f0-9]{32}\.jpg$/);
    const kept = await vault.ctx.database.database
      .prepare('select visibility from beverages where id = ?')
      .get(porter.id);
    expect(kept).toEqual({ visibility: 'PRIVATE' }); // the export's own visibility
    const served = await vault.request(`/${porter.photoPath}`, { cookie: dave });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const atak = entries.find((e) => e.name === 'Atak Chmielu')!;
    expect(atak.createdAt).toBe('2024-03-01T20:12:00.000Z');
  });

  async function refusedZip(files: Record<string, Buffer>, patch?: (b: Buffer) => Buffer) {
    const before = await snapshot();
    let bytes = await zip(files);
    if (patch) bytes = patch(bytes);
    const res = await upload(alice, bytes);
    const { message } = (await json(res)) as { message: string };
    expect(await snapshot()).toEqual(before);
    return { status: res.status, message };
  }

  it('is refused when a file name in the ZIP points outside it', async () => {
    const name = 'photos/XXXXXXXXXXXXXXX.jpg';
    const evil = '../../../../../../evil.jpg';
    expect(evil.length).toBe(name.length);
    const { status, message } = await refusedZip(
      { 'entries.json': exportJson([exported()]), [name]: await jpeg(8, 8) },
      (b) => Buffer.from(b.toString('latin1').replaceAll(name, evil), 'latin1'),
    );
    expect(status).toBe(400);
    expect(message).toMatch(/file name pointing outside/);
  });

  it('is refused when it unpacks to far more than it weighs (a ZIP bomb)', async () => {
    const { status, message } = await refusedZip({
      'entries.json': Buffer.alloc(20 * 1024 * 1024),
    });
    expect(status).toBe(400);
    expect(message).toMatch(/unpacks to far more/);
  });

  it('is refused when a photo is not an image', async () => {
    const { status, message } = await refusedZip({
      'entries.json': exportJson([exported({ photo: 'photos/abc.jpg' })]),
      'photos/abc.jpg': Buffer.from('<html><script>alert(1)</script></html>'),
    });
    expect(status).toBe(400);
    expect(message).toMatch(/photos\/abc\.jpg in the ZIP file is not an image/);
  });

  it('is refused when entries.json is not a vault export', async () => {
    const wrong = await refusedZip({ 'entries.json': Buffer.from('{"format":"other"}') });
    expect(wrong.status).toBe(400);
    expect(wrong.message).toMatch(/not a vault export/);
    const missing = await refusedZip({ 'readme.txt': Buffer.from('hello') });
    expect(missing.message).toMatch(/has no entries\.json/);
    const photoMissing = await refusedZip({
      'entries.json': exportJson([exported({ photo: 'photos/gone.jpg' })]),
    });
    expect(photoMissing.message).toMatch(/lacks photos\/gone\.jpg/);
  });
});
