import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRecords, inspectCsv } from '../../src/imports/csv-source.ts';
import { CSV_FORMATS } from '../../src/imports/formats/index.ts';
import type { MapResult, MappedRow } from '../../src/imports/rows.ts';

const sample = (name: string) => path.join(import.meta.dirname, 'samples', name);

/** A sample read as the importer reads it: its format, and every row mapped. */
async function mapSample(name: string) {
  const file = sample(name);
  const layout = await inspectCsv(file, 'auto');
  const results: MapResult[] = [];
  for await (const record of csvRecords(file, layout, 0)) results.push(layout.format.map(record));
  return { format: layout.format.id, total: layout.total, results };
}

function rowOf(result: MapResult | undefined): MappedRow {
  if (result?.ok !== true) throw new Error(`expected a mapped row, got ${JSON.stringify(result)}`);
  return result.row;
}

describe('Untappd check-ins', () => {
  it('are recognized by their columns and every check-in is a row', async () => {
    const { format, total, results } = await mapSample('untappd.csv');
    expect(format).toBe('untappd');
    expect(total).toBe(7);
    expect(results).toHaveLength(7);
  });

  it('map to tried beers with the brewery as maker, whole-star ratings and the check-in date', async () => {
    const { results } = await mapSample('untappd.csv');
    const atak = rowOf(results[0]);
    expect(atak).toMatchObject({
      type: 'BEER',
      name: 'Atak Chmielu',
      subtype: 'IPA',
      makerName: 'Browar Pinta',
      rating: 4, // 4.25
      status: 'TRIED',
      inCellar: false,
      createdAt: Date.parse('2024-03-01T20:12:00Z'),
    });
    expect(atak.notes).toContain('Piney, resinous; a classic.\nWould drink again.');
    expect(atak.notes).toContain('Venue: Beer & Bones, Kraków');
    expect(rowOf(results[1]).rating).toBe(5); // 4.75
    expect(rowOf(results[3]).rating).toBe(4); // 3.5 rounds up
  });

  it("find the closest subtype in Untappd's styles", async () => {
    const { results } = await mapSample('untappd.csv');
    expect(rowOf(results[1]).subtype).toBe('IPA'); // IPA - Imperial / Double
    expect(rowOf(results[3]).subtype).toBe('Wheat'); // Wheat Beer - Hefeweizen
    expect(rowOf(results[4]).subtype).toBe('Belgian'); // Belgian Tripel
  });

  it('keep a style the catalogue lacks in the notes, under the first beer subtype', async () => {
    const { results } = await mapSample('untappd.csv');
    const cider = rowOf(results[5]);
    expect(cider.subtype).toBe('Lager');
    expect(cider.notes).toContain('Style: Cider - Traditional');
    expect(cider.rating).toBe(0); // no rating given
  });

  it('refuse a check-in without a beer name, with the reason', async () => {
    const { results } = await mapSample('untappd.csv');
    expect(results[6]).toEqual({ ok: false, name: '', reason: 'The row has no name' });
  });
});

describe('Vivino wines', () => {
  it('map to tried wines named with their vintage, the winery as maker', async () => {
    const { format, results } = await mapSample('vivino.csv');
    expect(format).toBe('vivino');
    const sassicaia = rowOf(results[0]);
    expect(sassicaia).toMatchObject({
      type: 'WINE',
      name: 'Sassicaia 2018',
      makerName: 'Tenuta San Guido',
      rating: 5,
      status: 'TRIED',
      createdAt: Date.parse('2023-12-24T19:02:11Z'),
    });
    expect(sassicaia.notes).toContain('Stunning, long finish.');
    expect(sassicaia.notes).toContain('Christmas dinner');
    expect(sassicaia.notes).toContain('Region: Bolgheri Sassicaia, Italy');
  });

  it('round half-star ratings and leave an unrated wine at 0', async () => {
    const { results } = await mapSample('vivino.csv');
    expect(rowOf(results[1]).rating).toBe(5); // 4.5
    expect(rowOf(results[2]).rating).toBe(4); // 3.5
    expect(rowOf(results[3]).rating).toBe(0);
  });

  it('find the subtype from the regional style, the name or the wine type', async () => {
    const { results } = await mapSample('vivino.csv');
    expect(rowOf(results[1]).subtype).toBe('Sauvignon Blanc');
    expect(rowOf(results[2]).subtype).toBe('Tempranillo'); // Spanish Rioja Red
    expect(rowOf(results[3]).subtype).toBe('Champagne');
    expect(rowOf(results[3]).name).toBe('Brut Carte Jaune'); // N.V. is no vintage
    const unknown = rowOf(results[4]);
    expect(unknown.subtype).toBe('Cabernet Sauvignon');
    expect(unknown.notes).toContain('Style: Southern Rhône Red');
  });
});

describe('CellarTracker exports', () => {
  it('map bottles in the cellar to entries in the cellar with a bottle line in Location › Bin', async () => {
    const { format, results } = await mapSample('cellartracker-inventory.csv');
    expect(format).toBe('cellartracker');
    const sancerre = rowOf(results[0]);
    expect(sancerre).toMatchObject({
      type: 'WINE',
      name: 'Domaine Vacheron Sancerre 2022',
      subtype: 'Sauvignon Blanc',
      makerName: 'Domaine Vacheron',
      inCellar: true,
      status: 'TRIED', // it has the user's own score
      rating: 4, // 88 points
      createdAt: Date.UTC(2025, 0, 5),
    });
    expect(sancerre).toMatchObject({ drinkFrom: 2024, drinkUntil: 2027 });
    expect(sancerre.bottles).toEqual([
      {
        quantity: 1,
        sizeMl: 750,
        vintage: 2022,
        place: ['Cellar', 'A1'],
        purchasedOn: '2025-01-05',
        priceMinor: null,
        currency: null,
        note: 'Gift from Sam',
        createdAt: null,
        updatedAt: null,
      },
    ]);
    expect(sancerre.notes).not.toContain('Quantity in cellar');
  });

  it('put an unscored bottle in the cellar on the to-try list', async () => {
    const { results } = await mapSample('cellartracker-inventory.csv');
    const ridge = rowOf(results[1]);
    expect(ridge).toMatchObject({ status: 'TO_TRY', rating: 0, inCellar: true });
    expect(ridge.subtype).toBe('Cabernet Sauvignon'); // from MasterVarietal
    expect(rowOf(results[2]).subtype).toBe('Champagne');
    expect(rowOf(results[2]).name).toBe('Bollinger Special Cuvée'); // 1001 is non-vintage
    const rebula = rowOf(results[3]);
    expect(rebula.subtype).toBe('Cabernet Sauvignon');
    expect(rebula.notes).toContain('Varietal: Ribolla Gialla');
  });

  it('map consumed bottles to tried wines out of the cellar, dated when drunk', async () => {
    const { results } = await mapSample('cellartracker-bottles.csv');
    expect(rowOf(results[0])).toMatchObject({
      name: 'Duckhorn Merlot 2019',
      subtype: 'Merlot',
      status: 'TRIED',
      inCellar: false,
      createdAt: Date.UTC(2025, 4, 11),
    });
    expect(rowOf(results[0]).notes).toContain('Soft and plummy');
    const chianti = rowOf(results[1]);
    expect(chianti).toMatchObject({ inCellar: true, status: 'TO_TRY', subtype: 'Sangiovese' });
    expect(chianti.bottles).toMatchObject([
      { quantity: 3, sizeMl: 750, vintage: 2021, place: [], priceMinor: null },
    ]);
  });
});

describe('The generic template', () => {
  it('maps every column and accepts the usual spellings of type, status and booleans', async () => {
    const { format, results } = await mapSample('generic.csv');
    expect(format).toBe('generic');
    expect(rowOf(results[0])).toMatchObject({
      type: 'WHISKEY',
      name: 'Lagavulin 16',
      subtype: 'Single Malt',
      makerName: 'Lagavulin',
      status: 'TRIED',
      rating: 5,
      inCellar: true,
      createdAt: Date.UTC(2023, 10, 2),
    });
    expect(rowOf(results[0]).notes).toContain('Quantity in cellar: 2');
    expect(rowOf(results[1])).toMatchObject({ status: 'TO_TRY', rating: 0, inCellar: true });
    expect(rowOf(results[2])).toMatchObject({ subtype: 'Wheat', rating: 4, inCellar: false });
    expect(rowOf(results[3])).toMatchObject({ type: 'WHISKEY', subtype: 'Japanese' });
  });

  it('refuses rows with an unknown type or a rating off the 0-5 scale, saying why', async () => {
    const { results } = await mapSample('generic.csv');
    expect(results[4]).toEqual({
      ok: false,
      name: 'Honey Wine',
      reason: 'The type must be whiskey, wine or beer',
    });
    expect(results[5]).toEqual({
      ok: false,
      name: 'Too High',
      reason: 'The rating must be a number from 0 to 5',
    });
  });
});

describe('Recognizing a file', () => {
  it('tries every CSV format, the generic template last', () => {
    expect(CSV_FORMATS.map((f) => f.id)).toEqual(['untappd', 'vivino', 'cellartracker', 'generic']);
  });

  it('refuses a file of a format other than the one chosen, naming the missing columns', async () => {
    await expect(inspectCsv(sample('vivino.csv'), 'untappd')).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('beer_name'),
    });
  });
});

describe("The entries.csv of a vault's export", () => {
  it('is read as the generic template, with dates, cellar flag and visibility', async () => {
    const { format, results } = await mapSample('vault-entries.csv');
    expect(format).toBe('generic');
    expect(rowOf(results[0])).toMatchObject({
      type: 'WHISKEY',
      name: 'Buffalo Trace',
      subtype: 'Bourbon',
      makerName: 'Buffalo Trace Distillery',
      rating: 4,
      inCellar: true,
      createdAt: Date.UTC(2025, 1, 1, 10),
      updatedAt: Date.UTC(2025, 1, 3, 10),
      visibility: { visibility: 'PRIVATE', federated: false },
    });
  });

  it('loses the apostrophe the export put before formula-like texts', async () => {
    const { results } = await mapSample('vault-entries.csv');
    expect(rowOf(results[1])).toMatchObject({
      name: '=HYPERLINK(1)',
      makerName: '-minus brewing',
      notes: '@note',
      status: 'TO_TRY',
      visibility: { visibility: 'FOLLOWERS', federated: true },
    });
  });

  it('refuses a visibility it does not know', async () => {
    const { results } = await mapSample('vault-entries.csv');
    expect(results[2]).toEqual({
      ok: false,
      name: 'Odd Visibility',
      reason: 'The visibility must be private, followers or members',
    });
  });
});
