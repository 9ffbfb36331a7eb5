import type { EntryBasics } from '../../contract/entry-basics.ts';
import type { Visibility } from '../db/schema/index.ts';
import { MAKER_MAX_LENGTH, NAME_MAX_LENGTH, NOTES_MAX_LENGTH } from '../beverages/catalog.ts';

/**
 * One row of an imported file, mapped to an entry of the vault: its basic fields (the rating 0
 * when the file has none, and always for to-try) and what else the file says of it.
 */
export interface MappedRow extends EntryBasics {
  /** When it was logged in the other app (ms), or null for "now". */
  createdAt: number | null;
  updatedAt: number | null;
  /** The photo's path inside the vault's export ZIP. */
  photo: string | null;
  /** Who may see it, as a vault export says; absent: the owner's default visibility. */
  visibility?: { visibility: Visibility; federated?: boolean | undefined } | undefined;
  /** Usernames the entry was shared with, as a vault export says (restored when found here). */
  sharedWith?: readonly string[] | undefined;
  /** The drinking window, years; absent or null: open. */
  drinkFrom?: number | null | undefined;
  drinkUntil?: number | null | undefined;
  /** Bottle lines that come with the entry (they put it in the cellar). */
  bottles?: ImportedBottle[] | undefined;
  /** Tastings that come with the entry (a vault export's). */
  tastings?: ImportedTasting[] | undefined;
  /** Bottle events (a vault export's): of this entry, or of entries since deleted. */
  events?: ImportedEvent[] | undefined;
  /** Places to make even when no bottle is in them (a vault export's): paths of names. */
  places?: { path: string[]; createdAt: number }[] | undefined;
}

/** A bottle line brought in with an entry; `place` is the path of names, [] for none. */
export interface ImportedBottle {
  quantity: number;
  sizeMl: number;
  vintage: number | null;
  place: readonly string[];
  purchasedOn: string | null;
  priceMinor: number | null;
  currency: string | null;
  note: string;
  /** When it was added (ms); null for the time of the import. */
  createdAt: number | null;
  updatedAt: number | null;
}

/** A tasting brought in with an entry; `photo` is its path inside the vault's export ZIP. */
export interface ImportedTasting {
  tastedOn: string;
  rating: number | null;
  notes: string;
  photo: string | null;
  vintage: number | null;
  opened: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A change of the number of bottles; `ofEntry` false for an entry no longer there. */
export interface ImportedEvent {
  kind: 'ADDED' | 'OPENED' | 'CHANGED' | 'REMOVED';
  change: number;
  at: number;
  ofEntry: boolean;
}

/**
 * What became of one row of a file: an entry, a refusal, or (`part`) a row whose bottles went
 * into the entry of an earlier row `of` (1-based), as CellarTracker lists a wine once per bottle.
 */
export type MapResult =
  | { ok: true; row: MappedRow }
  | { ok: false; name: string; reason: string }
  | { ok: 'part'; name: string; of: number };

/** A CSV row, keyed by the header's column names in lower case. */
export type CsvRecord = Record<string, string | undefined>;

export const refuse = (name: string, reason: string): MapResult => ({ ok: false, name, reason });

/** A cell's text, trimmed ('' when the column is missing). */
export function cell(record: CsvRecord, column: string): string {
  return (record[column] ?? '').trim();
}

/** A number written in a cell, or null (commas as decimal separators accepted). */
export function numberIn(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(t)) return null;
  return Number(t);
}

/** A whole 0-5 rating from a number on a scale of 0 to 5 (halves and quarters rounded). */
export function fromFivePoints(value: number | null): number | null {
  if (value === null || value < 0 || value > 5) return null;
  return Math.round(value);
}

/** A year from 1800 to 2200 written in a cell, or null. */
export function yearIn(text: string): number | null {
  const t = text.trim();
  if (!/^\d{4}$/.test(t)) return null;
  const year = Number(t);
  return year >= 1800 && year <= 2200 ? year : null;
}

/**
 * A bottle size in ml from how apps write it: '750ml', '750 ml', '1.5L', '1,5 l', '37.5cl',
 * 'Magnum', or a bare number of ml. Null when unreadable or off 1 ml-30 l.
 */
export function sizeIn(text: string): number | null {
  const t = text.trim().toLowerCase().replace(',', '.');
  const named: Record<string, number> = {
    split: 187,
    piccolo: 187,
    half: 375,
    'half bottle': 375,
    demi: 375,
    standard: 750,
    bottle: 750,
    magnum: 1500,
    'double magnum': 3000,
    jeroboam: 3000,
    rehoboam: 4500,
    imperial: 6000,
    methuselah: 6000,
  };
  if (named[t]) return named[t];
  const m = /^(\d+(?:\.\d+)?)\s*(ml|cl|l|ltr|litre|liter)?\.?$/.exec(t);
  if (!m) return null;
  const unit = m[2] ?? 'ml';
  const factor = unit === 'ml' ? 1 : unit === 'cl' ? 10 : 1000;
  const ml = Math.round(Number(m[1]) * factor);
  return ml >= 1 && ml <= 30_000 ? ml : null;
}

/** A price in minor units (cents) from a cell: '42', '42.50', '1,234.50'; null when none. */
export function priceMinorIn(text: string): number | null {
  const t = text.trim().replace(/[^\d.,]/g, '');
  if (!t) return null;
  const normalized = /,\d{1,2}$/.test(t)
    ? t.replace(/\./g, '').replace(',', '.')
    : t.replace(/,/g, '');
  const value = Number(normalized);
  if (!Number.isFinite(value) || value <= 0 || value > 1_000_000) return null;
  return Math.round(value * 100);
}

/** A three-letter currency code, upper case; null otherwise. */
export function currencyIn(text: string): string | null {
  const t = text.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(t) ? t : null;
}

/**
 * A drinking window from two cells (first and last year); a year that is not one, or a window
 * that ends before it starts, is left open.
 */
export function windowOf(
  from: string,
  until: string,
): { drinkFrom: number | null; drinkUntil: number | null } {
  const drinkFrom = yearIn(from);
  const drinkUntil = yearIn(until);
  if (drinkFrom !== null && drinkUntil !== null && drinkUntil < drinkFrom) {
    return { drinkFrom: null, drinkUntil: null };
  }
  return { drinkFrom, drinkUntil };
}

/** 'YYYY-MM-DD' of a date another app wrote, or null. */
export function dayIn(text: string): string | null {
  const ms = dateIn(text);
  return ms === null ? null : new Date(ms).toISOString().slice(0, 10);
}

/** A year that reads as a vintage (CellarTracker writes 1001 for non-vintage). */
export function vintageOf(text: string): string | null {
  return /^(1[5-9]\d\d|20\d\d)$/.test(text.trim()) ? text.trim() : null;
}

/**
 * A date as another app wrote it: ISO ('2024-03-01', '2024-03-01 20:12:00', with or without
 * a zone; without one it is read as UTC), or month/day/year ('3/1/2024'). Null when unreadable.
 */
export function dateIn(text: string): number | null {
  const t = text.trim();
  if (!t) return null;
  let m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
      t,
    );
  if (m) {
    const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
    const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${zone ? normalizeZone(zone) : 'Z'}`;
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? null : ms;
  }
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) {
    const [month, day, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const ms = Date.UTC(year, month - 1, day);
    // 31/12/2024 (day first) is not read as a month 31: the date must not roll over.
    return new Date(ms).getUTCMonth() === month - 1 && new Date(ms).getUTCDate() === day
      ? ms
      : null;
  }
  // Untappd's older exports: 'Fri, 01 Mar 2024 20:12:00 +0000'.
  const ms = /^[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} \d{4}/.test(t) ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

function normalizeZone(zone: string): string {
  if (zone === 'Z') return zone;
  return zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
}

/** Notes from labelled parts, empty ones left out, cut to the notes' length limit. */
export function notesOf(parts: readonly (string | null | undefined)[]): string {
  const text = parts
    .filter((p): p is string => !!p && p.trim() !== '')
    .map((p) => p.trim())
    .join('\n');
  return text.length > NOTES_MAX_LENGTH ? `${text.slice(0, NOTES_MAX_LENGTH - 1)}…` : text;
}

/** 'Label: value', or null when there is no value. */
export function labelled(label: string, value: string | null | undefined): string | null {
  return value && value.trim() ? `${label}: ${value.trim()}` : null;
}

/** Name and maker checked against the vault's limits; the mapped row, or the reason it is refused. */
export function checked(row: MappedRow): MapResult {
  if (!row.name) return refuse('', 'The row has no name');
  if (row.name.length > NAME_MAX_LENGTH) {
    return refuse(row.name.slice(0, 60), `The name is longer than ${NAME_MAX_LENGTH} characters`);
  }
  if (row.makerName.length > MAKER_MAX_LENGTH) {
    return refuse(row.name, `The maker's name is longer than ${MAKER_MAX_LENGTH} characters`);
  }
  return { ok: true, row };
}

/** The entry's name with its vintage, unless the name already carries it. */
export function withVintage(name: string, vintage: string | null): string {
  if (!vintage || name.includes(vintage)) return name;
  return name ? `${name} ${vintage}` : name;
}
