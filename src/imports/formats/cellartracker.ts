import type { BeverageType } from '../../db/schema/index.ts';
import { closestSubtype } from '../subtypes.ts';
import {
  cell,
  checked,
  currencyIn,
  dateIn,
  dayIn,
  labelled,
  notesOf,
  numberIn,
  priceMinorIn,
  sizeIn,
  vintageOf,
  windowOf,
  withVintage,
  type CsvRecord,
  type ImportedBottle,
  type MapResult,
} from '../rows.ts';
import type { CsvFormat } from './format.ts';

/**
 * CellarTracker's CSV exports: the cellar (Inventory: one row per bottle; or the list of wines
 * with a Quantity), the Bottles export (BottleState 1 in the cellar, 0 consumed) and the
 * Consumed export (a Consumed date per row). Shared columns: iWine, Vintage, Wine, Producer,
 * Type, Varietal, MasterVarietal, Country, Region, Appellation.
 *
 * The Inventory export lists every bottle on its own row: the rows of one wine (iWine, which
 * CellarTracker gives each vintage of a wine) make one entry (`groupKey`), each bottle a bottle
 * line in its Location › Bin (places made as needed), with its size, vintage, price and
 * purchase date; BeginConsume and EndConsume are the entry's drinking window.
 * A bottle still in the cellar is in the cellar (on the to-try list unless it has a score); a
 * consumed one is tried. Scores are on 100 points: rating = round((points − 50) / 10), 0 to 5.
 */
export const cellarTracker: CsvFormat = {
  id: 'cellartracker',
  required: ['iwine', 'wine', 'producer'],
  groupKey(record: CsvRecord): string | null {
    const wine = cell(record, 'iwine');
    return wine ? `${wine}\u0000${cell(record, 'vintage')}` : null;
  },
  map(record: CsvRecord): MapResult {
    const kind = cell(record, 'type');
    const type = typeOf(kind);
    const name = cell(record, 'wine');
    const { subtype, original } = closestSubtype(type, [
      cell(record, 'varietal'),
      cell(record, 'mastervarietal'),
      kind,
      cell(record, 'appellation'),
      name,
    ]);
    const consumedOn = cell(record, 'consumed') || cell(record, 'consumptiondate');
    const consumed = consumedOn !== '' || cell(record, 'bottlestate') === '0';
    const quantity = consumed ? 0 : quantityOf(record);
    const points = scoreOf(record);
    const rating = points === null ? 0 : Math.min(5, Math.max(0, Math.round((points - 50) / 10)));
    const place = [cell(record, 'appellation'), cell(record, 'region'), cell(record, 'country')]
      .filter((p) => p && p !== 'Unknown')
      .join(', ');
    const status = consumed || points !== null ? 'TRIED' : 'TO_TRY';
    const vintage = vintageOf(cell(record, 'vintage'));
    const bottle = quantity > 0 ? bottleOf(record, quantity, vintage) : null;
    return checked({
      type,
      name: withVintage(name, vintage),
      subtype,
      makerName: cell(record, 'producer'),
      rating: status === 'TO_TRY' ? 0 : rating,
      notes: notesOf([
        cell(record, 'pnotes'),
        cell(record, 'consumptionnote'),
        bottle ? null : cell(record, 'bottlenote'),
        labelled('Varietal', original),
        labelled('Region', place),
      ]),
      status,
      inCellar: quantity > 0,
      ...windowOf(cell(record, 'beginconsume'), cell(record, 'endconsume')),
      bottles: bottle ? [bottle] : undefined,
      createdAt:
        dateIn(consumedOn) ??
        dateIn(cell(record, 'purchasedate')) ??
        dateIn(cell(record, 'deliverydate')),
      updatedAt: null,
      photo: null,
    });
  },
};

/** The bottle line of a row still in the cellar: Location › Bin, size, price, purchase. */
function bottleOf(record: CsvRecord, quantity: number, vintage: string | null): ImportedBottle {
  const location = cell(record, 'location');
  const pending = /^\(?pending\)?$/i.test(location);
  const place = pending ? [] : [location, cell(record, 'bin')].filter(Boolean);
  const currency = currencyIn(
    cell(record, 'currency') ||
      cell(record, 'bottlecostcurrency') ||
      cell(record, 'nativepricecurrency'),
  );
  const price =
    priceMinorIn(cell(record, 'price') || cell(record, 'bottlecost')) ??
    priceMinorIn(cell(record, 'valuation'));
  return {
    quantity: Math.min(quantity, 9999),
    sizeMl: sizeIn(cell(record, 'size') || cell(record, 'bottlesize')) ?? 750,
    vintage: vintage === null ? null : Number(vintage),
    place,
    purchasedOn: dayIn(cell(record, 'purchasedate')),
    priceMinor: currency ? price : null,
    currency: currency && price !== null ? currency : null,
    note: notesOf([pending ? 'Pending delivery' : null, cell(record, 'bottlenote')]).slice(0, 500),
    createdAt: null,
    updatedAt: null,
  };
}

/** Wine, unless CellarTracker's Type says spirits or beer. */
function typeOf(kind: string): BeverageType {
  const k = kind.toLowerCase();
  if (/whisk|spirit|bourbon|scotch/.test(k)) return 'WHISKEY';
  if (/beer|ale|lager/.test(k)) return 'BEER';
  return 'WINE';
}

/** Bottles in the cellar: Quantity, else Inventory, else one (a row of the Inventory export). */
function quantityOf(record: CsvRecord): number {
  for (const column of ['quantity', 'inventory']) {
    if (record[column] !== undefined)
      return Math.max(0, Math.floor(numberIn(cell(record, column)) ?? 0));
  }
  return 1;
}

/** The user's own score: MY (Inventory), PScore (Available), Score; null when none. */
function scoreOf(record: CsvRecord): number | null {
  for (const column of ['my', 'pscore', 'score']) {
    const value = numberIn(cell(record, column));
    if (value !== null && value > 0 && value <= 100) return value;
  }
  return null;
}
