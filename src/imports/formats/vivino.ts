import type { BeverageType } from '../../db/schema/index.ts';
import { closestSubtype } from '../subtypes.ts';
import {
  cell,
  checked,
  dateIn,
  fromFivePoints,
  labelled,
  notesOf,
  numberIn,
  vintageOf,
  withVintage,
  type CsvRecord,
  type ImportedBottle,
  type MapResult,
} from '../rows.ts';
import type { CsvFormat } from './format.ts';

/**
 * Vivino's data download (a ZIP, src/imports/vivino-zip.ts) and the CSV files in it:
 *  - full_wine_list.csv, "My wines": Winery, Wine name, Vintage, Region, Country, Regional wine
 *    style, Average rating, Scan date, Scan/Review Location, Your rating, Your review, Personal
 *    Note, Wine type, Drinking Window, Link to wine, Label image. Every row is a wine tried;
 *    "Your rating" (1-5, halves allowed) is rounded to whole stars.
 *  - cellar.csv, the wines in the user's cellar: Winery, Wine name, Vintage, Region, Country,
 *    Regional wine style, Average rating, Wine type, Link to wine, User cellar count. A row is
 *    a wine in the cellar (to try) with that many bottles.
 * The vintage is added to the name, so two vintages are two entries; the Drinking Window
 * ('2024 - 2030') is the entry's.
 */
export const vivino: CsvFormat = {
  id: 'vivino',
  required: ['winery', 'wine name'],
  map(record: CsvRecord): MapResult {
    const type: BeverageType = 'WINE';
    const style = cell(record, 'regional wine style');
    const kind = cell(record, 'wine type');
    const name = cell(record, 'wine name');
    const { subtype, original } = closestSubtype(type, [style, name, kind]);
    const place = [cell(record, 'region'), cell(record, 'country')].filter(Boolean).join(', ');
    const vintage = vintageOf(cell(record, 'vintage'));
    const inCellarList = record[CELLAR_COUNT] !== undefined;
    const bottles = inCellarList ? bottlesOf(record, vintage) : undefined;
    return checked({
      type,
      name: withVintage(name, vintage),
      subtype,
      makerName: cell(record, 'winery'),
      rating: inCellarList ? 0 : (fromFivePoints(numberIn(cell(record, 'your rating'))) ?? 0),
      notes: notesOf([
        cell(record, 'your review'),
        cell(record, 'personal note'),
        labelled('Style', original),
        labelled('Region', place),
      ]),
      status: inCellarList ? 'TO_TRY' : 'TRIED',
      inCellar: (bottles?.length ?? 0) > 0,
      createdAt: dateIn(cell(record, 'scan date')),
      updatedAt: null,
      photo: null,
      ...drinkingWindowIn(cell(record, 'drinking window')),
      bottles,
    });
  },
};

/** cellar.csv's column of how many bottles of the wine the user has. */
export const CELLAR_COUNT = 'user cellar count';

/** The bottle line of a row of cellar.csv: 'User cellar count' bottles of 75 cl; none at 0. */
export function bottlesOf(record: CsvRecord, vintage: string | null): ImportedBottle[] {
  const count = Math.floor(numberIn(cell(record, CELLAR_COUNT)) ?? 0);
  if (count <= 0) return [];
  return [
    {
      quantity: Math.min(count, 9999),
      sizeMl: 750,
      vintage: vintage === null ? null : Number(vintage),
      place: [],
      purchasedOn: null,
      priceMinor: null,
      currency: null,
      note: '',
      createdAt: null,
      updatedAt: null,
    },
  ];
}

/**
 * Vivino's Drinking Window: '2024 - 2030' (or '2024-2030', '2024 – 2030'); a single year is a
 * window of that year. Anything else leaves the window open.
 */
export function drinkingWindowIn(text: string): {
  drinkFrom: number | null;
  drinkUntil: number | null;
} {
  const years = (text.match(/\b\d{4}\b/g) ?? []).map(Number).filter((y) => y >= 1800 && y <= 2200);
  if (years.length === 0 || years.length > 2) return { drinkFrom: null, drinkUntil: null };
  const from = Math.min(...years);
  const until = Math.max(...years);
  return { drinkFrom: from, drinkUntil: until };
}

/** What makes a row of cellar.csv the same wine as a row of full_wine_list.csv. */
export function vivinoWineKey(record: CsvRecord): string {
  return ['winery', 'wine name', 'vintage']
    .map((c) => cell(record, c).toLowerCase())
    .join('\u0000');
}
