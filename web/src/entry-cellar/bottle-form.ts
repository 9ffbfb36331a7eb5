/**
 * The bottle form's state as pure functions (no DOM, unit-tested in Node): what the fields hold
 * as typed, the JSON they send, and how a line reads ('3 × 750 ml · 2018').
 */
import {
  BOTTLE_MAX_QUANTITY,
  COMMON_BOTTLE_SIZES,
  DEFAULT_BOTTLE_SIZE,
} from '../../../contract/cellar-limits.ts';
import type { BeverageType } from '../api/types.ts';
import type { Bottle, BottleInput } from './api.ts';

/** 'other' in the size list: the size is typed in ml. */
export const OTHER_SIZE = 'other';

export interface BottleDraft {
  quantity: string;
  /** One of COMMON_BOTTLE_SIZES as text, or OTHER_SIZE. */
  size: string;
  otherSize: string;
  vintage: string;
  /** A place id as text; '' for none. */
  placeId: string;
  purchasedOn: string;
  price: string;
  currency: string;
  note: string;
}

const isCommon = (ml: number) => (COMMON_BOTTLE_SIZES as readonly number[]).includes(ml);

/** The fields of a new line (one 750 ml bottle) or of an existing one. */
export function bottleDraft(bottle?: Bottle): BottleDraft {
  if (!bottle) {
    return {
      quantity: '1',
      size: String(DEFAULT_BOTTLE_SIZE),
      otherSize: '',
      vintage: '',
      placeId: '',
      purchasedOn: '',
      price: '',
      currency: '',
      note: '',
    };
  }
  return {
    quantity: String(bottle.quantity),
    size: isCommon(bottle.sizeMl) ? String(bottle.sizeMl) : OTHER_SIZE,
    otherSize: isCommon(bottle.sizeMl) ? '' : String(bottle.sizeMl),
    vintage: bottle.vintage === null ? '' : String(bottle.vintage),
    placeId: bottle.placeId === null ? '' : String(bottle.placeId),
    purchasedOn: bottle.purchasedOn ?? '',
    price: bottle.price === null ? '' : String(bottle.price),
    currency: bottle.currency ?? '',
    note: bottle.note,
  };
}

/** Whether a type's bottles have a vintage (wine and whiskey; beer does not). */
export const hasVintage = (type: BeverageType) => type !== 'BEER';

export const QUANTITY_MESSAGE = `Quantity must be a whole number from 1 to ${BOTTLE_MAX_QUANTITY}`;
export const SIZE_MESSAGE = 'Size must be a whole number of ml from 1 to 30000';
export const VINTAGE_MESSAGE = 'Vintage must be a year from 1800 to 2200';
export const PRICE_MESSAGE = 'Price must be a number from 0 to 1000000';

const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

/**
 * The JSON a draft sends, every field given (an emptied one as null, so a change clears it), or
 * the first thing wrong with it. The vault checks the rest (the currency of a price, say).
 */
export function bottleJson(
  draft: BottleDraft,
  type: BeverageType,
): { json: BottleInput } | { error: string } {
  const quantity = wholeNumber(draft.quantity);
  if (!(quantity >= 1 && quantity <= BOTTLE_MAX_QUANTITY)) return { error: QUANTITY_MESSAGE };
  const sizeMl = draft.size === OTHER_SIZE ? wholeNumber(draft.otherSize) : Number(draft.size);
  if (!(sizeMl >= 1 && sizeMl <= 30_000)) return { error: SIZE_MESSAGE };
  let vintage: number | null = null;
  if (hasVintage(type) && draft.vintage.trim() !== '') {
    vintage = wholeNumber(draft.vintage);
    if (!(vintage >= 1800 && vintage <= 2200)) return { error: VINTAGE_MESSAGE };
  }
  let price: number | null = null;
  if (draft.price.trim() !== '') {
    price = Number(draft.price.trim().replace(',', '.'));
    if (!Number.isFinite(price) || price < 0 || price > 1_000_000) return { error: PRICE_MESSAGE };
  }
  const currency = draft.currency.trim().toUpperCase();
  return {
    json: {
      quantity,
      sizeMl,
      vintage,
      placeId: draft.placeId === '' ? null : Number(draft.placeId),
      purchasedOn: draft.purchasedOn === '' ? null : draft.purchasedOn,
      price,
      currency: currency === '' ? null : currency,
      note: draft.note.trim(),
    },
  };
}

/** '750 ml', '1.5 l'. */
export function sizeLabel(ml: number): string {
  return ml >= 1000 ? `${ml / 1000} l` : `${ml} ml`;
}

/** A line in short: '3 × 750 ml · 2018'. */
export function bottleSummary(bottle: Pick<Bottle, 'quantity' | 'sizeMl' | 'vintage'>): string {
  const parts = [`${bottle.quantity} × ${sizeLabel(bottle.sizeMl)}`];
  if (bottle.vintage !== null) parts.push(String(bottle.vintage));
  return parts.join(' · ');
}

/** A place's path as one text: 'Basement › Rack A'. */
export const placeLabel = (path: readonly string[]) => path.join(' › ');

/** A price with its currency in the reader's language: '€24.50'. */
export function priceLabel(price: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(price);
  } catch {
    return `${price.toFixed(2)} ${currency}`;
  }
}
