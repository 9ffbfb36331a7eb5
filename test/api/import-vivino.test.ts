import fs from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobResponseSchema, importReportSchema } from '../../contract/imports.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * Vivino's data download as a user brings it: the ZIP holding full_wine_list.csv, cellar.csv
 * (with 'User cellar count') and user_prices.csv, and cellar.csv on its own. Samples in
 * test/imports/samples/vivino-download/, named as Vivino names them.
 */
const download = path.join(import.meta.dirname, '..', 'imports', 'samples', 'vivino-download');
const file = (name: string) => fs.readFileSync(path.join(download, name));

let vault: TestVault;

beforeAll(() => {
  vault = createTestVault();
});
afterAll(() => vault.close());

async function signedIn(username: string) {
  const user = await vault.createUser({ username });
  return vault.login(username, user.password);
}

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

function upload(cookie: string, body: Uint8Array, query = '') {
  return vault.request(`/api/imports${query}`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': 'application/octet-stream' },
    cookie,
  });
}

async function importFile(cookie: string, body: Uint8Array, query = '') {
  const res = await upload(cookie, body, query);
  expect(res.status).toBe(202);
  const { job } = importJobResponseSchema.parse(await json(res));
  await vault.ctx.imports.idle();
  const report = await vault.request(`/api/imports/${job.id}/report`, { cookie });
  return importReportSchema.parse(await json(report));
}

interface Entry {
  id: number;
  name: string;
  makerName: string;
  status: string;
  rating: number;
  inCellar: boolean;
  drinkFrom: number | null;
  drinkUntil: number | null;
  bottleCount: number;
}

async function entriesOf(cookie: string): Promise<Map<string, Entry>> {
  const res = await vault.request('/api/beverages?limit=200', { cookie });
  const { beverages } = (await json(res)) as { beverages: Entry[] };
  return new Map(beverages.map((b) => [b.name, b]));
}

async function bottlesOf(cookie: string, id: number) {
  const res = await vault.request(`/api/beverages/${id}/bottles`, { cookie });
  expect(res.status).toBe(200);
  return ((await json(res)) as { bottles: { quantity: number; sizeMl: number; vintage: number }[] })
    .bottles;
}

describe("Vivino's data download", () => {
  it('imports the wine list with its windows, cellar counts becoming bottles on the same wines', async () => {
    const cookie = await signedIn('vivino_zip');
    const bytes = await zip({
      'full_wine_list.csv': file('full_wine_list.csv'),
      'cellar.csv': file('cellar.csv'),
      'user_prices.csv': file('user_prices.csv'),
    });
    const report = await importFile(cookie, bytes, '?fileName=vivino_data.zip');
    expect(report.job).toMatchObject({
      format: 'vivino',
      fileName: 'vivino_data.zip',
      status: 'DONE',
      total: 4,
      imported: 4,
      refused: 0,
    });
    const entries = await entriesOf(cookie);
    expect(entries.get('Grand Vin de Léoville 2015')).toMatchObject({
      makerName: 'Château Léoville Las Cases',
      status: 'TRIED',
      rating: 5, // 4.5 rounded
      inCellar: true,
      drinkFrom: 2025,
      drinkUntil: 2045,
      bottleCount: 3,
    });
    const leoville = entries.get('Grand Vin de Léoville 2015')!;
    expect(await bottlesOf(cookie, leoville.id)).toMatchObject([
      { quantity: 3, sizeMl: 750, vintage: 2015 },
    ]);
    // In the cellar list with a count of 0: no bottle, not in the cellar.
    expect(entries.get('Sassicaia 2018')).toMatchObject({
      status: 'TRIED',
      rating: 5,
      inCellar: false,
      drinkFrom: 2023,
      drinkUntil: 2040,
      bottleCount: 0,
    });
    expect(entries.get('Sauvignon Blanc 2022')).toMatchObject({
      drinkFrom: null,
      drinkUntil: null,
      inCellar: false,
    });
    // In the cellar only: an entry to try, in the cellar with its bottles.
    expect(entries.get('Le Haut-Lieu Sec 2019')).toMatchObject({
      makerName: 'Domaine Huet',
      status: 'TO_TRY',
      rating: 0,
      inCellar: true,
      bottleCount: 2,
    });
    expect(entries.size).toBe(4);
  });

  it('imports cellar.csv on its own: each wine in the cellar with its bottles', async () => {
    const cookie = await signedIn('vivino_cellar');
    const report = await importFile(cookie, file('cellar.csv'));
    expect(report.job).toMatchObject({ format: 'vivino', status: 'DONE', imported: 3 });
    const entries = await entriesOf(cookie);
    expect(entries.get('Grand Vin de Léoville 2015')).toMatchObject({
      status: 'TO_TRY',
      inCellar: true,
      bottleCount: 3,
    });
    expect(entries.get('Le Haut-Lieu Sec 2019')).toMatchObject({ inCellar: true, bottleCount: 2 });
    expect(entries.get('Sassicaia 2018')).toMatchObject({ inCellar: false, bottleCount: 0 });
  });

  it('reads a wine list saved in Windows-1252 inside the ZIP with its accents', async () => {
    const cookie = await signedIn('vivino_latin');
    const text = file('full_wine_list.csv').toString('utf8');
    const bytes = await zip({ 'full_wine_list.csv': Buffer.from(text, 'latin1') });
    const report = await importFile(cookie, bytes);
    expect(report.job).toMatchObject({ status: 'DONE', imported: 3 });
    expect((await entriesOf(cookie)).get('Grand Vin de Léoville 2015')).toMatchObject({
      makerName: 'Château Léoville Las Cases',
    });
  });

  it('refuses, with a message saying why, a ZIP that is neither a vault export nor a download of Vivino', async () => {
    const cookie = await signedIn('vivino_refused');
    const refused = async (bytes: Buffer, query = '') => {
      const res = await upload(cookie, bytes, query);
      expect(res.status).toBe(400);
      return ((await json(res)) as { message: string }).message;
    };
    expect(await refused(await zip({ 'notes.txt': Buffer.from('hello') }))).toMatch(
      /has no entries\.json: it is not a vault export \(nor Vivino's data download/,
    );
    expect(
      await refused(
        await zip({ 'full_wine_list.csv': Buffer.from('Name,Year\nSomething,2020\n') }),
      ),
    ).toBe('full_wine_list.csv in the ZIP file lacks the columns winery, wine name');
    const bytes = await zip({ 'cellar.csv': file('cellar.csv') });
    expect(await refused(bytes, '?format=untappd')).toMatch(
      /only a vault export or Vivino's data download can be imported as a ZIP/,
    );
    expect(await refused(await zip({ 'notes.txt': Buffer.from('x') }), '?format=vivino')).toBe(
      "This ZIP file has neither of Vivino's full_wine_list.csv and cellar.csv",
    );
    expect((await entriesOf(cookie)).size).toBe(0);
  });
});
