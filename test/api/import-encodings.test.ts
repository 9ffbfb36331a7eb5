import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobResponseSchema } from '../../contract/imports.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

const samples = path.join(import.meta.dirname, '..', 'imports', 'samples');
const NAME = 'Château Léoville Las Cases';
const HEADER = 'type,name,subtype,maker,status,rating,notes,in_cellar,quantity,created_at';

let vault: TestVault;
let cookie: string;

beforeAll(async () => {
  vault = createTestVault();
  const user = await vault.createUser({ username: 'cellar' });
  cookie = await vault.login('cellar', user.password);
});
afterAll(() => vault.close());

/** Windows-1252 bytes of a text whose characters are all in Latin-1 (é is 0xE9, â 0xE2). */
const windows1252 = (text: string) => {
  expect([...text].every((ch) => ch.charCodeAt(0) < 0x80 || ch.charCodeAt(0) > 0x9f)).toBe(true);
  return new Uint8Array(Buffer.from(text, 'latin1'));
};
const utf8 = (text: string, bom = false) =>
  new Uint8Array(Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(text)]));

/** Imports the bytes and answers the names of the entries the import made. */
async function importedNames(bytes: Uint8Array): Promise<string[]> {
  const before = new Set(await names());
  const res = await vault.request('/api/imports', {
    method: 'POST',
    body: bytes,
    headers: { 'content-type': 'application/octet-stream' },
    cookie,
  });
  expect(res.status).toBe(202);
  const { job } = importJobResponseSchema.parse(await json(res));
  await vault.ctx.imports.idle();
  const done = await vault.request(`/api/imports/${job.id}`, { cookie });
  expect((await json(done)).job.status).toBe('DONE');
  return (await names()).filter((name) => !before.has(name));
}

async function names(): Promise<string[]> {
  const res = await vault.request('/api/beverages?limit=100', { cookie });
  return ((await json(res)).beverages as { name: string }[]).map((b) => b.name);
}

/** One row naming NAME, in each CSV format the vault reads (no vintage, so the name is exact). */
const ROWS: Record<string, (name: string) => string> = {
  generic: (name) => `${HEADER}\nwine,${name},Red,Léoville,tried,4,,no,1,2024-01-02\n`,
  CellarTracker: (name) =>
    `iWine,Location,Bin,Vintage,Wine,Producer,Type\n7001,Cave,A1,,${name},Léoville Las Cases,Red\n`,
  Vivino: (name) =>
    `Winery,Wine name,Vintage,Your rating,Wine type\nLéoville Las Cases,${name},,4,Red wine\n`,
  Untappd: (name) =>
    `beer_name,brewery_name,beer_type,rating_score,created_at\n${name},Brasserie Élixir,Saison,4,2024-03-01 20:12:00\n`,
};

describe('a CSV import reads the text encoding the file was saved in', () => {
  for (const [format, row] of Object.entries(ROWS)) {
    it(`imports 'Château Léoville Las Cases' exactly from a ${format} CSV saved in Windows-1252`, async () => {
      const name = `${NAME} - ${format} in Windows-1252`;
      expect(await importedNames(windows1252(row(name)))).toEqual([name]);
    });
  }

  it('imports the accents exactly from a CSV saved as UTF-16 with a byte order mark, little or big endian, tab separated as Excel saves "Unicode text"', async () => {
    for (const endian of ['le', 'be'] as const) {
      const name = `${NAME} - UTF-16${endian.toUpperCase()}`;
      const text = `\uFEFF${HEADER.replaceAll(',', '\t')}\nwine\t${name}\tRed\tLéoville\ttried\t4\t\tno\t1\t2024-01-02\n`;
      const le = Buffer.from(text, 'utf16le');
      const bytes = endian === 'le' ? le : Buffer.from(le).swap16();
      expect(await importedNames(new Uint8Array(bytes))).toEqual([name]);
    }
  });

  it('keeps the accents of a CellarTracker export saved in Windows-1252', async () => {
    const text = fs
      .readFileSync(path.join(samples, 'cellartracker-inventory.csv'), 'utf8')
      .replace('Domaine Vacheron Sancerre', NAME);
    const imported = await importedNames(windows1252(text));
    expect(imported.some((name) => name.includes(NAME))).toBe(true);
    expect(imported.join()).not.toContain('\uFFFD');
  });

  it('keeps the accents of a generic CSV in UTF-8, with or without a byte order mark', async () => {
    for (const bom of [false, true]) {
      const name = `${NAME} ${bom ? 'with' : 'without'} BOM`;
      const text = `${HEADER}\nwine,${name},Red,Léoville,tried,4,,no,1,2024-01-02\n`;
      expect(await importedNames(utf8(text, bom))).toEqual([name]);
    }
  });

  it('reads a file as Windows-1252 throughout when its first accent comes past the first 64 KiB the file is read in', async () => {
    const plain = Array.from(
      { length: 2_000 },
      (_, i) => `beer,Plain ale number ${i},IPA,Brewery,tried,3,,no,1,2024-01-02`,
    );
    const text = `${HEADER}\n${plain.join('\n')}\nwine,${NAME} late,Red,Léoville,tried,4,,no,1,2024-01-02\n`;
    expect(text.length).toBeGreaterThan(100_000);
    const bytes = windows1252(text);
    const res = await vault.request('/api/imports', {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
      cookie,
    });
    expect(res.status).toBe(202);
    await vault.ctx.imports.idle();
    const found = await vault.request(`/api/beverages?q=${encodeURIComponent('late')}`, { cookie });
    expect(((await json(found)).beverages as { name: string }[]).map((b) => b.name)).toEqual([
      `${NAME} late`,
    ]);
  });
});
