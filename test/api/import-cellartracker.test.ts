import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJobResponseSchema, importReportSchema } from '../../contract/imports.ts';
import { json } from '../helpers/json.ts';
import { createTestVault, type TestVault } from '../helpers/vault.ts';

/**
 * CellarTracker's Inventory export as a cellar keeper brings it: one row per bottle, six bottles
 * of one wine in two vintages (iWine is per vintage) in two places, the rows of a wine not next
 * to each other. The header is the real export's (test/imports/samples/cellartracker-inventory.csv).
 */
const samples = path.join(import.meta.dirname, '..', 'imports', 'samples');
const header = fs
  .readFileSync(path.join(samples, 'cellartracker-inventory.csv'), 'utf8')
  .split(/\r?\n/, 1)[0]!
  .split(',');

let vault: TestVault;

beforeAll(() => {
  vault = createTestVault();
});
afterAll(() => vault.close());

type Cells = Record<string, string>;

/** One bottle of the wine: the Inventory's columns, the others empty. */
function bottle(vintage: '2015' | '2016', cells: Cells): Cells {
  return {
    iWine: vintage === '2015' ? '2040181' : '2187405',
    Barcode: String(Math.floor(Math.random() * 1e10)),
    Size: '750ml',
    Currency: 'EUR',
    ExchangeRate: '1',
    StoreName: 'Millésima',
    Vintage: vintage,
    Wine: 'Château Léoville Las Cases',
    Locale: 'France, Bordeaux, Médoc, Saint-Julien',
    Country: 'France',
    Region: 'Bordeaux',
    SubRegion: 'Médoc',
    Appellation: 'Saint-Julien',
    Producer: 'Château Léoville Las Cases',
    SortProducer: 'Léoville Las Cases, Château',
    Type: 'Red',
    Color: 'Red',
    Category: 'Dry',
    Varietal: 'Red Bordeaux Blend',
    MasterVarietal: 'Red Bordeaux Blend',
    BeginConsume: vintage === '2015' ? '2027' : '2030',
    EndConsume: vintage === '2015' ? '2050' : '2055',
    ...cells,
  };
}

const inventory: Cells[] = [
  bottle('2015', { Location: 'Basement', Bin: 'Rack A', Price: '245', PurchaseDate: '3/14/2019' }),
  bottle('2016', { Location: 'Basement', Bin: 'Rack A', Price: '260', PurchaseDate: '4/2/2020' }),
  bottle('2015', { Location: 'Kitchen fridge', Price: '245', PurchaseDate: '3/14/2019' }),
  bottle('2015', { Location: 'Basement', Bin: 'Rack A', Price: '245', PurchaseDate: '3/14/2019' }),
  bottle('2016', { Location: 'Basement', Bin: 'Rack A', Price: '260', PurchaseDate: '4/2/2020' }),
  bottle('2016', {
    Location: 'Kitchen fridge',
    Size: '1.5L',
    Price: '540',
    PurchaseDate: '4/2/2020',
    BottleNote: 'Magnum for the wedding',
  }),
];

function csvOf(rows: Cells[]): string {
  const quoted = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  return [header.join(','), ...rows.map((r) => header.map((c) => quoted(r[c] ?? '')).join(','))]
    .map((line) => `${line}\r\n`)
    .join('');
}

async function signedIn(username: string) {
  const user = await vault.createUser({ username });
  return vault.login(username, user.password);
}

async function importFile(cookie: string, body: Uint8Array) {
  const res = await vault.request('/api/imports?fileName=export.csv', {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': 'text/csv' },
    cookie,
  });
  expect(res.status).toBe(202);
  const { job } = importJobResponseSchema.parse(await json(res));
  await vault.ctx.imports.idle();
  const report = await vault.request(`/api/imports/${job.id}/report`, { cookie });
  return importReportSchema.parse(await json(report));
}

interface Entry {
  id: number;
  name: string;
  inCellar: boolean;
  drinkFrom: number | null;
  drinkUntil: number | null;
  bottleCount: number;
}

async function get<T>(cookie: string, url: string): Promise<T> {
  const res = await vault.request(url, { cookie });
  expect(res.status).toBe(200);
  return (await json(res)) as T;
}

/** The cellar as its owner sees it through the API: entries, their bottles, the places. */
async function cellarOf(cookie: string) {
  const { beverages } = await get<{ beverages: Entry[] }>(cookie, '/api/beverages?limit=200');
  const bottles: Record<string, { place: string; quantity: unknown; sizeMl: unknown }[]> = {};
  for (const entry of beverages) {
    const { bottles: lines } = await get<{ bottles: Record<string, unknown>[] }>(
      cookie,
      `/api/beverages/${entry.id}/bottles`,
    );
    bottles[entry.name] = lines
      .map(({ quantity, sizeMl, vintage, placePath, purchasedOn, price, currency, note }) => ({
        quantity,
        sizeMl,
        vintage,
        place: (placePath as string[]).join(' › '),
        purchasedOn,
        price,
        currency,
        note,
      }))
      .sort((a, b) => a.place.localeCompare(b.place) || Number(a.sizeMl) - Number(b.sizeMl));
  }
  const { places } = await get<{ places: { name: string; path: string[]; parentId: unknown }[] }>(
    cookie,
    '/api/cellar/places',
  );
  return { entries: beverages, bottles, places: places.map((p) => p.path.join(' › ')).sort() };
}

const expectedBottles = {
  'Château Léoville Las Cases 2015': [
    {
      quantity: 2,
      sizeMl: 750,
      vintage: 2015,
      place: 'Basement › Rack A',
      purchasedOn: '2019-03-14',
      price: 245,
      currency: 'EUR',
      note: '',
    },
    {
      quantity: 1,
      sizeMl: 750,
      vintage: 2015,
      place: 'Kitchen fridge',
      purchasedOn: '2019-03-14',
      price: 245,
      currency: 'EUR',
      note: '',
    },
  ],
  'Château Léoville Las Cases 2016': [
    {
      quantity: 2,
      sizeMl: 750,
      vintage: 2016,
      place: 'Basement › Rack A',
      purchasedOn: '2020-04-02',
      price: 260,
      currency: 'EUR',
      note: '',
    },
    {
      quantity: 1,
      sizeMl: 1500,
      vintage: 2016,
      place: 'Kitchen fridge',
      purchasedOn: '2020-04-02',
      price: 540,
      currency: 'EUR',
      note: 'Magnum for the wedding',
    },
  ],
};

describe("CellarTracker's Inventory export (a row per bottle)", () => {
  it('becomes one entry per wine and vintage, with its bottles in nested places and its window', async () => {
    const cookie = await signedIn('ct_keeper');
    const report = await importFile(cookie, Buffer.from(csvOf(inventory)));
    expect(report.job).toMatchObject({
      format: 'cellartracker',
      status: 'DONE',
      total: 6,
      imported: 6,
      duplicates: 0,
      refused: 0,
    });
    expect(report.rows.map((r) => [r.row, r.outcome, r.reason])).toEqual([
      [1, 'IMPORTED', null],
      [2, 'IMPORTED', null],
      [3, 'IMPORTED', 'A bottle of the entry of row 1'],
      [4, 'IMPORTED', 'A bottle of the entry of row 1'],
      [5, 'IMPORTED', 'A bottle of the entry of row 2'],
      [6, 'IMPORTED', 'A bottle of the entry of row 2'],
    ]);
    const cellar = await cellarOf(cookie);
    expect(cellar.entries.map((e) => [e.name, e.inCellar, e.bottleCount]).sort()).toEqual([
      ['Château Léoville Las Cases 2015', true, 3],
      ['Château Léoville Las Cases 2016', true, 3],
    ]);
    const byName = new Map(cellar.entries.map((e) => [e.name, e]));
    expect(byName.get('Château Léoville Las Cases 2015')).toMatchObject({
      drinkFrom: 2027,
      drinkUntil: 2050,
    });
    expect(byName.get('Château Léoville Las Cases 2016')).toMatchObject({
      drinkFrom: 2030,
      drinkUntil: 2055,
    });
    expect(cellar.bottles).toEqual(expectedBottles);
    expect(cellar.places).toEqual(['Basement', 'Basement › Rack A', 'Kitchen fridge']);

    // The cellar's figures and the place filter see the imported bottles.
    const summary = await get<{ entries: number; bottles: number; value: unknown }>(
      cookie,
      '/api/cellar',
    );
    expect(summary).toMatchObject({
      entries: 2,
      bottles: 6,
      value: [{ currency: 'EUR', amount: 245 * 3 + 260 * 2 + 540 }],
    });
    const { places } = await get<{ places: { id: number; path: string[] }[] }>(
      cookie,
      '/api/cellar/places',
    );
    const fridge = places.find((p) => p.path.join() === 'Kitchen fridge')!;
    const inFridge = await get<{ beverages: Entry[] }>(
      cookie,
      `/api/beverages?placeId=${fridge.id}`,
    );
    expect(inFridge.beverages).toHaveLength(2);

    // The same file again: duplicates of the entries, no bottle counted twice, no place again.
    const again = await importFile(cookie, Buffer.from(csvOf(inventory)));
    expect(again.job).toMatchObject({ imported: 0, duplicates: 6 });
    expect(await cellarOf(cookie)).toEqual(cellar);
  });

  it('keeps the accents of an Inventory saved in Windows-1252, in names and places', async () => {
    const cookie = await signedIn('ct_latin');
    const rows = inventory.map((r) =>
      r.Location === 'Kitchen fridge' ? { ...r, Location: 'Cave à vin', Bin: 'Étagère 2' } : r,
    );
    const bytes = Buffer.from(csvOf(rows), 'latin1');
    expect(bytes.includes(Buffer.from('Château', 'utf8'))).toBe(false); // not UTF-8
    const report = await importFile(cookie, bytes);
    expect(report.job).toMatchObject({ status: 'DONE', imported: 6 });
    const cellar = await cellarOf(cookie);
    expect(cellar.entries.map((e) => e.name).sort()).toEqual([
      'Château Léoville Las Cases 2015',
      'Château Léoville Las Cases 2016',
    ]);
    expect(cellar.places).toEqual([
      'Basement',
      'Basement › Rack A',
      'Cave à vin',
      'Cave à vin › Étagère 2',
    ]);
    expect(cellar.bottles['Château Léoville Las Cases 2016']![1]).toMatchObject({
      place: 'Cave à vin › Étagère 2',
      sizeMl: 1500,
    });
  });

  it('gathers the bottles of a wine whose rows are spread over several batches', async () => {
    const cookie = await signedIn('ct_big');
    const wines = ['3001', '3002', '3003'];
    const rows = Array.from({ length: 450 }, (_, i) =>
      bottle('2015', {
        iWine: wines[i % 3]!,
        Wine: `Cuvée ${wines[i % 3]}`,
        Location: 'Basement',
        Bin: `Rack ${(i % 2) + 1}`,
      }),
    );
    const report = await importFile(cookie, Buffer.from(csvOf(rows)));
    expect(report.job).toMatchObject({ status: 'DONE', total: 450, imported: 450 });
    expect(report.rows[449]).toMatchObject({
      row: 450,
      outcome: 'IMPORTED',
      reason: 'A bottle of the entry of row 3',
    });
    const cellar = await cellarOf(cookie);
    expect(cellar.entries.map((e) => [e.name, e.bottleCount]).sort()).toEqual([
      ['Cuvée 3001 2015', 150],
      ['Cuvée 3002 2015', 150],
      ['Cuvée 3003 2015', 150],
    ]);
    expect(cellar.bottles['Cuvée 3001 2015']!.map((b) => [b.place, b.quantity])).toEqual([
      ['Basement › Rack 1', 75],
      ['Basement › Rack 2', 75],
    ]);
  });

  it('puts bottles into the places of the same names the user already has', async () => {
    const cookie = await signedIn('ct_existing');
    const made = await vault.postJson('/api/cellar/places', { name: 'Basement' }, cookie);
    expect(made.status).toBe(201);
    const report = await importFile(cookie, Buffer.from(csvOf(inventory)));
    expect(report.job).toMatchObject({ imported: 6 });
    expect((await cellarOf(cookie)).places).toEqual([
      'Basement',
      'Basement › Rack A',
      'Kitchen fridge',
    ]);
  });
});
