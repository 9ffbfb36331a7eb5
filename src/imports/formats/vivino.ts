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
  type MapResult,
} from '../rows.ts';
import type { CsvFormat } from './format.ts';

/**
 * Vivino's export of "My wines" (full_wine_list.csv): Winery, Wine name, Vintage, Region,
 * Country, Regional wine style, Average rating, Scan date, Scan/Review Location, Your rating,
 * Your review, Personal Note, Wine type, Drinking Window, Link to wine, Label image.
 * Every row is a wine tried; "Your rating" (1-5, halves allowed) is rounded to whole stars; the
 * vintage is added to the name, so two vintages are two entries.
 */
export const vivino: CsvFormat = {
  id: 'vivino',
  required: ['winery', 'wine name', 'your rating'],
  map(record: CsvRecord): MapResult {
    const type: BeverageType = 'WINE';
    const style = cell(record, 'regional wine style');
    const kind = cell(record, 'wine type');
    const name = cell(record, 'wine name');
    const { subtype, original } = closestSubtype(type, [style, name, kind]);
    const place = [cell(record, 'region'), cell(record, 'country')].filter(Boolean).join(', ');
    return checked({
      type,
      name: withVintage(name, vintageOf(cell(record, 'vintage'))),
      subtype,
      makerName: cell(record, 'winery'),
      rating: fromFivePoints(numberIn(cell(record, 'your rating'))) ?? 0,
      notes: notesOf([
        cell(record, 'your review'),
        cell(record, 'personal note'),
        labelled('Style', original),
        labelled('Region', place),
      ]),
      status: 'TRIED',
      inCellar: false,
      createdAt: dateIn(cell(record, 'scan date')),
      updatedAt: null,
      photo: null,
    });
  },
};
