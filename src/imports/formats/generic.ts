import { VISIBILITIES, type Visibility } from '../../../contract/enums.ts';
import type { BeverageStatus, BeverageType } from '../../db/schema/index.ts';
import { closestSubtype } from '../subtypes.ts';
import {
  cell,
  checked,
  dateIn,
  labelled,
  notesOf,
  numberIn,
  refuse,
  windowOf,
  type CsvRecord,
  type MapResult,
} from '../rows.ts';
import type { CsvFormat } from './format.ts';

/**
 * The generic CSV template (contract/imports.ts GENERIC_TEMPLATE_COLUMNS): type and name are
 * required; subtype, maker, status, rating, notes, in_cellar, quantity and created_at are
 * optional. The vault's own entries.csv (from an export) has these columns too.
 *
 *  - type: whiskey, wine or beer (any case; "whisky" too)
 *  - status: tried or to-try (TRIED/TO_TRY too); empty means tried
 *  - rating: 0 to 5, halves rounded; empty means 0; anything else refuses the row
 *  - in_cellar: yes/no, true/false, 1/0; when empty, a quantity above 0 means in the cellar
 *  - created_at: ISO date (2024-03-01 or 2024-03-01T20:12:00Z) or month/day/year
 *  - visibility (private, followers, members) and federated (yes/no), as an export writes them;
 *    left out, the importer's default visibility applies
 *  - drink_from and drink_until: the drinking window's years (empty: open)
 * A text cell the export guarded against spreadsheet formulas ('=…, '+…, '-…, '@…) loses its
 * apostrophe again.
 */
export const generic: CsvFormat = {
  id: 'generic',
  required: ['type', 'name'],
  map(record: CsvRecord): MapResult {
    const name = text(record, 'name');
    const type = typeIn(cell(record, 'type'));
    if (!type) return refuse(name, 'The type must be whiskey, wine or beer');
    const status = statusIn(cell(record, 'status'));
    if (!status) return refuse(name, 'The status must be tried or to-try');
    const ratingText = cell(record, 'rating');
    const rating = ratingText === '' ? 0 : numberIn(ratingText);
    if (rating === null || rating < 0 || rating > 5) {
      return refuse(name, 'The rating must be a number from 0 to 5');
    }
    const quantityText = cell(record, 'quantity');
    const quantity = quantityText === '' ? null : numberIn(quantityText);
    if (quantity !== null && (quantity < 0 || !Number.isInteger(quantity))) {
      return refuse(name, 'The quantity must be a whole number');
    }
    const cellarText = cell(record, 'in_cellar');
    const inCellar = cellarText === '' ? (quantity ?? 0) > 0 : booleanIn(cellarText);
    if (inCellar === null) return refuse(name, 'in_cellar must be yes or no');
    const visibility = visibilityIn(cell(record, 'visibility'), cell(record, 'federated'));
    if (visibility === null) {
      return refuse(name, 'The visibility must be private, followers or members');
    }
    const { subtype, original } = closestSubtype(type, [text(record, 'subtype')]);
    return checked({
      type,
      name,
      subtype,
      makerName: text(record, 'maker'),
      rating: status === 'TO_TRY' ? 0 : Math.round(rating),
      notes: notesOf([
        text(record, 'notes'),
        labelled('Subtype', original),
        quantity !== null && quantity > 0 ? `Quantity in cellar: ${quantity}` : null,
      ]),
      status,
      inCellar,
      createdAt: dateIn(cell(record, 'created_at')),
      updatedAt: dateIn(cell(record, 'updated_at')),
      photo: null,
      visibility,
      ...windowOf(cell(record, 'drink_from'), cell(record, 'drink_until')),
    });
  },
};

/** A text cell, without the apostrophe an export puts before a formula-like text. */
function text(record: CsvRecord, column: string): string {
  const value = cell(record, column);
  return /^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value;
}

/** The visibility columns: undefined when absent, null when not understood. */
function visibilityIn(
  visibility: string,
  federated: string,
): { visibility: Visibility; federated?: boolean | undefined } | undefined | null {
  if (!visibility) return undefined;
  const v = visibility.toUpperCase() as Visibility;
  if (!VISIBILITIES.includes(v)) return null;
  return { visibility: v, federated: federated ? (booleanIn(federated) ?? undefined) : undefined };
}

function typeIn(text: string): BeverageType | null {
  const t = text.toLowerCase();
  if (t === 'whiskey' || t === 'whisky') return 'WHISKEY';
  if (t === 'wine') return 'WINE';
  if (t === 'beer') return 'BEER';
  return null;
}

function statusIn(text: string): BeverageStatus | null {
  const t = text.toLowerCase().replace(/[\s_]+/g, '-');
  if (t === '' || t === 'tried') return 'TRIED';
  if (t === 'to-try') return 'TO_TRY';
  return null;
}

function booleanIn(text: string): boolean | null {
  const t = text.toLowerCase();
  if (['yes', 'true', '1', 'y'].includes(t)) return true;
  if (['no', 'false', '0', 'n'].includes(t)) return false;
  return null;
}
