import { closestSubtype } from '../subtypes.ts';
import {
  cell,
  checked,
  dateIn,
  fromFivePoints,
  labelled,
  notesOf,
  numberIn,
  type CsvRecord,
  type MapResult,
} from '../rows.ts';
import type { CsvFormat } from './format.ts';

/**
 * Untappd's check-in export (Beer History, CSV; a Supporter feature): one row per check-in,
 * columns beer_name, brewery_name, beer_type, beer_abv, beer_ibu, comment, venue_name, …,
 * rating_score, created_at, checkin_url, …, serving_type, checkin_id, bid, … .
 * Every row is a beer tried; rating_score (0-5 in quarter steps) is rounded to whole stars;
 * the same beer checked in again is a duplicate of the first.
 */
export const untappd: CsvFormat = {
  id: 'untappd',
  required: ['beer_name', 'brewery_name', 'beer_type'],
  map(record: CsvRecord): MapResult {
    const style = cell(record, 'beer_type');
    const { subtype, original } = closestSubtype('BEER', [style]);
    const abv = numberIn(cell(record, 'beer_abv'));
    const venue = [cell(record, 'venue_name'), cell(record, 'venue_city')].filter(Boolean);
    return checked({
      type: 'BEER',
      name: cell(record, 'beer_name'),
      subtype,
      makerName: cell(record, 'brewery_name'),
      rating: fromFivePoints(numberIn(cell(record, 'rating_score'))) ?? 0,
      notes: notesOf([
        cell(record, 'comment'),
        labelled('Style', original),
        abv ? `ABV: ${abv}%` : null,
        labelled('Serving', cell(record, 'serving_type')),
        labelled('Venue', venue.join(', ')),
      ]),
      status: 'TRIED',
      inCellar: false,
      createdAt: dateIn(cell(record, 'created_at')),
      updatedAt: null,
      photo: null,
    });
  },
};
