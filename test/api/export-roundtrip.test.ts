import fs from 'node:fs';
import sharp from 'sharp';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vaultExportSchema, type ExportEntry } from '../../contract/export.ts';
import { importJobResponseSchema, importReportSchema } from '../../contract/imports.ts';
import { unzip } from '../helpers/export-zip.ts';
import { jpeg } from '../helpers/images.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * The round trip: a vault's export imported into an empty vault, exported again, gives the
 * same entries (whom each is shared with included) and the same photos, byte for byte.
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
  return ((await json(res)) as { beverage: { id: number } }).beverage.id;
}

async function share(vault: TestVault, cookie: string, entryId: number, userId: number) {
  const res = await vault.postJson(`/api/beverages/${entryId}/share`, { userId }, cookie);
  expect(res.status).toBe(200);
}

const count = async (vault: TestVault, table: string) =>
  (await vault.ctx.database.database
    .prepare<{ n: number }>(`select count(*) as n from ${table}`)
    .get())!.n;

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

async function importInto(vault: TestVault, cookie: string, bytes: Uint8Array) {
  const upload = await vault.request('/api/imports?fileName=export.zip', {
    method: 'POST',
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
    cookie,
  });
  expect(upload.status).toBe(202);
  const { job } = importJobResponseSchema.parse(await json(upload));
  await vault.ctx.imports.idle();
  const res = await vault.request(`/api/imports/${job.id}/report`, { cookie });
  return importReportSchema.parse(await json(res));
}

describe('export, import into an empty vault, export again', () => {
  it('gives the same entries, shares and photos, byte for byte', async () => {
    const alice = await signedIn(first, 'round_tripper');
    // A friend with an account on both vaults.
    const friendHere = await first.createUser({ username: 'both_vaults' });
    await second.createUser({ username: 'both_vaults' });
    const photo = (w: number, h: number) =>
      jpeg(w, h).then((b) => new Blob([new Uint8Array(b)], { type: 'image/jpeg' }));
    const springbank = await create(first, alice, {
      type: 'WHISKEY',
      name: 'Springbank 10',
      subtype: 'Single Malt',
      makerName: 'Springbank',
      rating: '5',
      notes: 'Brine, "oily", a line\nbreak, and =SUM(1) as text.',
      inCellar: 'true',
      photo: await photo(400, 600),
    });
    const musar = await create(first, alice, {
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
    await share(first, alice, springbank, friendHere.id);
    await share(first, alice, musar, friendHere.id);
    const before = await exportOf(first, alice);
    expect(before.data.entries.filter((e) => e.sharedWith.length)).toHaveLength(2);

    const again = await signedIn(second, 'round_tripper');
    const notificationsBefore = await count(second, 'notifications');
    const activitiesBefore = await count(second, 'activities');
    const report = await importInto(second, again, before.bytes);
    expect(report.job).toMatchObject({ status: 'DONE', imported: 3, duplicates: 0, refused: 0 });
    expect(report.rows.map((r) => r.reason)).toEqual([null, null, null]);
    const after = await exportOf(second, again);

    expect(after.data.entries).toHaveLength(3);
    expect(after.data.entries.map(portable)).toEqual(before.data.entries.map(portable));
    for (const [i, entry] of before.data.entries.entries()) {
      if (!entry.photo) continue;
      const photoAfter = after.files.get(after.data.entries[i]!.photo!)!;
      expect(photoAfter.equals(before.files.get(entry.photo)!)).toBe(true);
    }
    // The restored shares notify no one and record no activity (nothing to deliver or federate).
    expect(await count(second, 'notifications')).toBe(notificationsBefore);
    expect(await count(second, 'activities')).toBe(activitiesBefore);
  });

  it('names in the report the users a share could not be restored to', async () => {
    const owner = await signedIn(first, 'sharer');
    const onlyHere = await first.createUser({ username: 'only_on_first' });
    const onBoth = await first.createUser({ username: 'on_both' });
    await second.createUser({ username: 'on_both' });
    const id = await create(first, owner, {
      type: 'BEER',
      name: 'Orval',
      subtype: 'Belgian',
      makerName: 'Orval',
      rating: '5',
    });
    await share(first, owner, id, onlyHere.id);
    await share(first, owner, id, onBoth.id);
    const { bytes } = await exportOf(first, owner);

    const again = await signedIn(second, 'sharer');
    const report = await importInto(second, again, bytes);
    expect(report.rows).toEqual([
      {
        row: 1,
        name: 'Orval',
        outcome: 'IMPORTED',
        reason: 'Not shared again with only_on_first: no user of this vault has that username',
      },
    ]);
    const after = await exportOf(second, again);
    expect(after.data.entries.map((e) => e.sharedWith)).toEqual([['on_both']]);
  });
});

/** A ZIP built with yazl, in memory. */
function zipOf(files: Record<string, Buffer>): Promise<Buffer> {
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

/** A gradient, as sharp's raw input (so the JPEG is not a flat colour). */
function gradient(width: number, height: number) {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7 + Math.floor(i / width)) % 256;
  return sharp(raw, { raw: { width, height, channels: 3 } });
}

/** A JPEG segment (marker and body) put right after the start of the image. */
function withSegment(image: Buffer, marker: number, body: Buffer) {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([image.subarray(0, 2), head, body, image.subarray(2)]);
}

describe('A photo in a vault ZIP that is not exactly what the vault stores', () => {
  it('is re-encoded and cleaned; only one in the stored form is kept byte for byte', async () => {
    // What the vault itself stores: a baseline JPEG of its encoder, without metadata.
    const storedForm = await gradient(320, 240).jpeg({ quality: 82 }).toBuffer();
    const photos: Record<string, Buffer> = {
      storedForm,
      exif: await jpeg(320, 240, { gps: true }),
      exifAtVaultQuality: await gradient(320, 240)
        .withExif({ IFD0: { Make: 'SpyCam', Model: 'Tracker 3000' } })
        .jpeg({ quality: 82 })
        .toBuffer(),
      icc: await gradient(320, 240).withIccProfile('p3').jpeg({ quality: 82 }).toBuffer(),
      xmp: await gradient(320, 240)
        .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><SpyCam/></x:xmpmeta>')
        .jpeg({ quality: 82 })
        .toBuffer(),
      comment: withSegment(storedForm, 0xfe, Buffer.from('SpyCam was here')),
      trailer: Buffer.concat([storedForm, Buffer.from('<script>alert("SpyCam")</script>')]),
      progressive: await gradient(320, 240).jpeg({ quality: 82, progressive: true }).toBuffer(),
      tooWide: await gradient(2100, 40).jpeg({ quality: 82 }).toBuffer(),
      otherQuality: await gradient(320, 240).jpeg({ quality: 95 }).toBuffer(),
      png: await gradient(320, 240).png().toBuffer(),
    };
    const names = Object.keys(photos);
    // Each crafted photo does carry what it is about.
    for (const name of ['exif', 'exifAtVaultQuality', 'xmp', 'comment', 'trailer']) {
      expect({ name, carries: photos[name]!.includes('SpyCam') }).toEqual({ name, carries: true });
    }
    expect((await sharp(photos.icc).metadata()).hasProfile).toBe(true);
    const files: Record<string, Buffer> = {
      'entries.json': Buffer.from(
        JSON.stringify({
          format: 'the-vault-export',
          version: 1,
          exportedAt: '2026-11-01T10:00:00.000Z',
          user: { username: 'crafter', fullName: 'Crafter' },
          entries: names.map((name, i) => ({
            id: i + 1,
            type: 'WINE',
            name,
            subtype: 'Merlot',
            maker: '',
            status: 'TRIED',
            rating: 3,
            notes: '',
            inCellar: false,
            createdAt: '2025-01-01T00:00:00.000Z',
            updatedAt: '2025-01-01T00:00:00.000Z',
            photo: `photos/${name}.jpg`,
            sharedWith: [],
          })),
        }),
      ),
    };
    for (const name of names) files[`photos/${name}.jpg`] = photos[name]!;
    const crafter = await signedIn(second, 'crafter');
    const report = await importInto(second, crafter, await zipOf(files));
    expect(report.job).toMatchObject({ status: 'DONE', imported: names.length });

    const stored = await second.ctx.database.database
      .prepare<{ name: string; photoPath: string }>(
        `select b.name, b.photo_path as photoPath from beverages b
           join users u on u.id = b.user_id where u.username = 'crafter'`,
      )
      .all();
    expect(stored.map((s) => s.name).sort()).toEqual([...names].sort());
    for (const { name, photoPath } of stored) {
      const bytes = fs.readFileSync(second.ctx.media.locate(photoPath)!);
      const meta = await sharp(bytes).metadata();
      expect({ name, kept: bytes.equals(photos[name]!) }).toEqual({
        name,
        kept: name === 'storedForm',
      });
      expect(meta).toMatchObject({ format: 'jpeg', isProgressive: false, hasProfile: false });
      expect([meta.exif, meta.icc, meta.xmp, meta.iptc, meta.comments]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(2048);
      expect(bytes.includes('SpyCam')).toBe(false);
      expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    }
  });
});
