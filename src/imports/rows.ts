import type { BeverageStatus, BeverageType, Visibility } from '../db/schema/index.ts';
import { MAKER_MAX_LENGTH, NAME_MAX_LENGTH, NOTES_MAX_LENGTH } from '../beverages/catalog.ts';

/** One row of an imported file, mapped to an entry of the vault. */
export interface MappedRow {
  type: BeverageType;
  name: string;
  subtype: string;
  makerName: string;
  /** 0 to 5; 0 when the file has no rating (and always for to-try). */
  rating: number;
  notes: string;
  status: BeverageStatus;
  inCellar: boolean;
  /** When it was logged in the other app (ms), or null for "now". */
  createdAt: number | null;
  updatedAt: number | null;
  /** The photo's path inside the vault's export ZIP. */
  photo: string | null;
  /** Who may see it, as a vault export says; absent: the owner's default visibility. */
  visibility?: { visibility: Visibility; federated?: boolean | undefined } | undefined;
  /** Usernames the entry was shared with, as a vault export says (restored when found here). */
  sharedWith?: readonly string[] | undefined;
}

export type MapResult = { ok: true; row: MappedRow } | { ok: false; name: string; reason: string };

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
