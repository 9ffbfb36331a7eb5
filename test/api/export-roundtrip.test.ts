import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultExportSchema, type ExportEntry } from '../../contract/export.ts';
import { importJobResponseSchema } from '../../contract/imports.ts';
import { unzip } from '../helpers/export-zip.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The round trip: a vault's export imported into an empty vault, exported again, gives the
 * same entries and the same photos.
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
  const user = await vault.createUser({ username, fullName: 'Round Tripper' });
  return vault.login(username, user.password);
}

async function create(vault: TestVault, cookie: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await vault.request('/api/beverages', { method: 'POST', body: form, cookie });
  expect(res.status).toBe(201);
}

async function exportOf(vault: TestVault, cookie: string) {
  const res = await vault.request('/api/export', { cookie });
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const files = await unzip(bytes);
  const data = vaultExportSchema.parse(JSON.parse(files.get('entries.json')!.toString('utf8')));
  return { bytes, files, data };
}

/** An entry without what belongs to the vault it sits in: its id and its photo's file name. */
function portable(entry: ExportEntry) {
  const { id: _id, photo, ...rest } = entry;
  return { ...rest, photo: photo !== null };
}

/**
 * How far apart two photos are: their sizes, and the mean difference of their pixels (0 to
 * 255). The import re-encodes each photo (it checks and cleans every image that enters the
 * vault), so the bytes differ while the picture stays.
 */
async function photoDistance(a: Buffer, b: Buffer) {
  const [x, y] = await Promise.all(
    [a, b].map((bytes) => sharp(bytes).raw().toBuffer({ resolveWithObject: true })),
  );
  let sum = 0;
  for (let i = 0; i < x!.data.length; i++) sum += Math.abs(x!.data[i]! - y!.data[i]!);
  return {
    sizes: [`${x!.info.width}x${x!.info.height}`, `${y!.info.width}x${y!.info.height}`],
    meanDifference: sum / x!.data.length,
  };
}

describe('export, import into an empty vault, export again', () => {
  it('gives the same entries and the same photos', async () => {
    const alice = await signedIn(first, 'round_tripper');
    const photo = (w: number, h: number) =>
      jpeg(w, h).then((b) => new Blob([new Uint8Array(b)], { type: 'image/jpeg' }));
    await create(first, alice, {
      type: 'WHISKEY',
      name: 'Springbank 10',
      subtype: 'Single Malt',
      makerName: 'Springbank',
      rating: '5',
      notes: 'Brine, "oily", a line\nbreak, and =SUM(1) as text.',
      inCellar: 'true',
      photo: await photo(400, 600),
    });
    await create(first, alice, {
      type: 'WINE',
      name: 'Château Musar',
      subtype: 'Cabernet Sauvignon',
      status: 'TO_TRY',
      visibility: 'PRIVATE',
    });
    await create(first, alice, {
      type: 'BEER',
      name: 'Pliny the Elder',
      subtype: 'IPA',
      makerName: 'Russian River',
      rating: '4',
      visibility: 'FOLLOWERS',
      photo: await photo(300, 300),
    });
    const before = await exportOf(first, alice);

    const again = await signedIn(second, 'round_tripper');
    const upload = await second.request('/api/imports?fileName=export.zip', {
      method: 'POST',
      body: before.bytes,
      headers: { 'content-type': 'application/octet-stream' },
      cookie: again,
    });
    expect(upload.status).toBe(202);
    importJobResponseSchema.parse(await json(upload));
    await second.ctx.imports.idle();
    const after = await exportOf(second, again);

    expect(after.data.entries).toHaveLength(3);
    expect(after.data.entries.map(portable)).toEqual(before.data.entries.map(portable));
    for (const [i, entry] of before.data.entries.entries()) {
      if (!entry.photo) continue;
      const { sizes, meanDifference } = await photoDistance(
        before.files.get(entry.photo)!,
        after.files.get(after.data.entries[i]!.photo!)!,
      );
      expect(sizes[1]).toBe(sizes[0]);
      expect(meanDifference).toBeLessThan(3);
    }
  });
});
