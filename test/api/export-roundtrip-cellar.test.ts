import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultCellarSchema, vaultTastingsSchema } from '../../contract/export-cellar.ts';
import { vaultExportSchema } from '../../contract/export.ts';
import { importJobResponseSchema, importReportSchema } from '../../contract/imports.ts';
import { PHOTO } from '../../src/media/images.ts';
import { unzip } from '../helpers/export-zip.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The round trip of a cellar: places (nested, an empty one too), bottle lines with every field,
 * drinking windows, tastings with their photos, and the bottle events (of an entry since
 * deleted too) exported, imported into a fresh account of another vault and exported again
 * give the same data, and the same cellar figures.
 */
let first: TestVault;
let second: TestVault;

beforeAll(() => {
  first = createTestVault();
  second = createTestVault();
});
afterAll(async () => {
  await first.close();
  await second.close();
});

async function signedIn(vault: TestVault, username: string) {
  const user = await vault.createUser({ username });
  return { id: user.id, cookie: await vault.login(username, user.password) };
}

async function ok<T>(res: Response, status = 200): Promise<T> {
  const body = await json(res);
  expect({ status: res.status, body }).toMatchObject({ status });
  return body as T;
}

async function create(vault: TestVault, cookie: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
  return (await ok<{ beverage: { id: number } }>(res, 201)).beverage.id;
}

async function place(vault: TestVault, cookie: string, name: string, parentId?: number) {
  const res = await vault.postJson('/api/cellar/places', { name, parentId }, cookie);
  return (await ok<{ place: { id: number } }>(res, 201)).place.id;
}

async function addBottles(vault: TestVault, cookie: string, entryId: number, body: object) {
  const res = await vault.postJson(`/api/beverages/${entryId}/bottles`, body, cookie);
  return (await ok<{ bottle: { id: number } }>(res, 201)).bottle.id;
}

async function exportOf(vault: TestVault, cookie: string) {
  const res = await vault.request('/api/export', { cookie });
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const files = await unzip(bytes);
  const read = (name: string) => JSON.parse(files.get(name)!.toString('utf8')) as unknown;
  return {
    bytes,
    files,
    data: vaultExportSchema.parse(read('entries.json')),
    cellar: vaultCellarSchema.parse(read('cellar.json')),
    tastings: vaultTastingsSchema.parse(read('tastings.json')),
  };
}

type Exported = Awaited<ReturnType<typeof exportOf>>;

/** The export without what belongs to the vault it sits in (ids, photo file names). */
function portable({ data, cellar, tastings, files }: Exported) {
  const nameOf = new Map(data.entries.map((e) => [e.id, e.name]));
  const byId = new Map(cellar.places.map((p) => [p.id, p]));
  const pathOf = (id: number | null): string => {
    const p = id === null ? undefined : byId.get(id);
    return p ? [pathOf(p.parentId), p.name].filter(Boolean).join(' › ') : '';
  };
  const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();
  return {
    entries: data.entries.map(({ id: _id, photo, ...rest }) => ({ ...rest, photo: !!photo })),
    places: cellar.places.map((p) => [pathOf(p.id), p.createdAt]).sort(),
    bottles: sorted(
      cellar.bottles.map(({ id: _id, entryId, placeId, ...rest }) => ({
        ...rest,
        entry: nameOf.get(entryId),
        place: pathOf(placeId),
      })),
    ),
    bottleEvents: sorted(
      cellar.bottleEvents.map(({ entryId, ...rest }) => ({
        ...rest,
        entry: entryId === null ? null : nameOf.get(entryId),
      })),
    ),
    tastings: sorted(
      tastings.tastings.map(({ id: _id, entryId, photo, ...rest }) => ({
        ...rest,
        entry: nameOf.get(entryId),
        photo: photo ? crypto.createHash('sha256').update(files.get(photo)!).digest('hex') : null,
      })),
    ),
  };
}

async function importInto(vault: TestVault, cookie: string, bytes: Uint8Array) {
  const upload = await vault.request('/api/imports?fileName=export.zip', {
    method: 'POST',
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
    cookie,
  });
  const { job } = importJobResponseSchema.parse(await ok(upload, 202));
  await vault.ctx.imports.idle();
  const res = await vault.request(`/api/imports/${job.id}/report`, { cookie });
  return importReportSchema.parse(await json(res));
}

describe('the round trip of a cellar', () => {
  it('gives the same places, bottles, windows, tastings with their photos and bottle events', async () => {
    const alice = await signedIn(first, 'cellar_keeper');
    const photo = new Blob([new Uint8Array(await jpeg(400, 300))], { type: 'image/jpeg' });
    const leoville = await create(first, alice.cookie, {
      type: 'WINE',
      name: 'Château Léoville Las Cases 2015',
      subtype: 'Cabernet Sauvignon',
      makerName: 'Château Léoville Las Cases',
      status: 'TO_TRY',
      drinkFrom: '2027',
      drinkUntil: '2050',
      photo,
    });
    const sassicaia = await create(first, alice.cookie, {
      type: 'WINE',
      name: 'Sassicaia 2018',
      subtype: 'Cabernet Sauvignon',
      rating: '5',
      drinkFrom: '2023',
    });
    const lagavulin = await create(first, alice.cookie, {
      type: 'WHISKEY',
      name: 'Lagavulin 16',
      subtype: 'Single Malt',
    });
    const gone = await create(first, alice.cookie, { type: 'BEER', name: 'Gone', subtype: 'IPA' });

    const basement = await place(first, alice.cookie, 'Basement');
    const rack = await place(first, alice.cookie, 'Rack A', basement);
    const bin = await place(first, alice.cookie, 'Bin 3', rack);
    const fridge = await place(first, alice.cookie, 'Kitchen fridge');
    await place(first, alice.cookie, 'Garage'); // empty
    const lineOf6 = await addBottles(first, alice.cookie, leoville, {
      quantity: 6,
      sizeMl: 750,
      vintage: 2015,
      placeId: bin,
      purchasedOn: '2019-03-14',
      price: 245.5,
      currency: 'EUR',
      note: 'Case of six',
    });
    await addBottles(first, alice.cookie, leoville, { quantity: 1, sizeMl: 1500, placeId: fridge });
    await addBottles(first, alice.cookie, sassicaia, { quantity: 2, vintage: 2018 });
    await addBottles(first, alice.cookie, lagavulin, {
      quantity: 2,
      sizeMl: 700,
      price: 89.9,
      currency: 'GBP',
    });
    await addBottles(first, alice.cookie, gone, { quantity: 4, sizeMl: 330 });
    const opened = await first.postJson(
      `/api/beverages/${leoville}/bottles/${lineOf6}/open`,
      { tasting: { tastedOn: '2026-01-10', rating: 4, notes: 'Still closed; decant.' } },
      alice.cookie,
    );
    await ok(opened);
    // A tasting with a photo, and one without a rating.
    const tastingPhoto = await first.ctx.media.save(await jpeg(320, 240), PHOTO);
    await first.ctx.database.database
      .prepare(
        `INSERT INTO tastings (beverage_id, user_id, tasted_on, rating, notes, photo_path,
           vintage, opened, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(sassicaia, alice.id, '2025-12-24', null, 'Christmas', tastingPhoto, 2018, 0, 1, 2);
    const deleted = await first.request(`/api/beverages/${gone}`, {
      method: 'DELETE',
      cookie: alice.cookie,
    });
    expect(deleted.status).toBe(204);

    const before = await exportOf(first, alice.cookie);
    expect(before.data.version).toBe(2);
    expect(before.cellar.places).toHaveLength(5);
    expect(before.cellar.bottles).toHaveLength(4);
    expect(before.cellar.bottleEvents.map((e) => [e.kind, e.change, e.entryId])).toEqual([
      ['ADDED', 6, leoville],
      ['ADDED', 1, leoville],
      ['ADDED', 2, sassicaia],
      ['ADDED', 2, lagavulin],
      ['ADDED', 4, null], // of the entry since deleted
      ['OPENED', -1, leoville],
      ['REMOVED', -4, null], // its bottles, taken out with the entry
    ]);
    expect(before.tastings.tastings).toHaveLength(2);
    const cellarBefore = await ok(await first.request('/api/cellar', { cookie: alice.cookie }));
    const statsBefore = await ok<{ cellar: unknown }>(
      await first.request('/api/stats', { cookie: alice.cookie }),
    );

    const again = await signedIn(second, 'cellar_keeper');
    const report = await importInto(second, again.cookie, before.bytes);
    expect(report.job).toMatchObject({ status: 'DONE', imported: 3, refused: 0 });
    expect(report.rows.map((r) => r.reason)).toEqual([null, null, null]);
    const after = await exportOf(second, again.cookie);

    expect(portable(after)).toEqual(portable(before));
    expect(portable(after).entries.map((e) => [e.name, e.drinkFrom, e.drinkUntil])).toEqual([
      ['Château Léoville Las Cases 2015', 2027, 2050],
      ['Sassicaia 2018', 2023, null],
      ['Lagavulin 16', null, null],
    ]);
    expect(await ok(await second.request('/api/cellar', { cookie: again.cookie }))).toEqual(
      cellarBefore,
    );
    const statsAfter = await ok<{ cellar: unknown }>(
      await second.request('/api/stats', { cookie: again.cookie }),
    );
    expect(statsAfter.cellar).toEqual(statsBefore.cellar);
  });

  it('imports a version 1 export, which has no cellar.json or tastings.json, as before', async () => {
    const bob = await signedIn(second, 'old_exporter');
    const { default: yazl } = await import('yazl');
    const zip = new yazl.ZipFile();
    const entry = {
      id: 7,
      type: 'WINE',
      name: 'Old Export Wine',
      subtype: 'Merlot',
      maker: '',
      status: 'TRIED',
      rating: 4,
      notes: '',
      inCellar: true,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      photo: null,
      sharedWith: [],
    };
    const head = { format: 'the-vault-export', version: 1, exportedAt: entry.createdAt };
    const body = { ...head, user: { username: 'x', fullName: 'X' }, entries: [entry] };
    zip.addBuffer(Buffer.from(JSON.stringify(body)), 'entries.json');
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    const report = await importInto(second, bob.cookie, Buffer.concat(chunks));
    expect(report.job).toMatchObject({ status: 'DONE', imported: 1 });
    const after = await exportOf(second, bob.cookie);
    expect(after.data.entries[0]).toMatchObject({
      name: 'Old Export Wine',
      inCellar: true,
      drinkFrom: null,
      drinkUntil: null,
    });
    expect(after.cellar).toEqual({ places: [], bottles: [], bottleEvents: [] });
    expect(after.tastings).toEqual({ tastings: [] });
  });
});
