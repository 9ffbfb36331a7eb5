import type { VaultCellar, VaultTastings } from '../../../contract/export-cellar.ts';
import type { ExportEntry } from '../../../contract/export.ts';
import { VISIBILITIES, type Visibility } from '../../../contract/enums.ts';
import { PLACE_MAX_DEPTH } from '../../../contract/cellar.ts';
import { subtypesOf } from '../../beverages/catalog.ts';
import { closestSubtype } from '../subtypes.ts';
import {
  checked,
  labelled,
  notesOf,
  type ImportedBottle,
  type ImportedEvent,
  type ImportedTasting,
  type MapResult,
} from '../rows.ts';

/** What cellar.json and tastings.json hold for one entry of entries.json. */
export interface EntryCellar {
  bottles: ImportedBottle[];
  tastings: ImportedTasting[];
  events: ImportedEvent[];
}

/**
 * An entry of the vault's own export (entries.json): taken as it is, with its dates, photo and
 * drinking window, and (from cellar.json and tastings.json) its bottle lines, tastings and
 * bottle events. A subtype this vault's catalogue lacks becomes the closest one, the original
 * kept in the notes. Its visibility is kept when the export has one this vault knows (else the
 * importer's default applies); whom it was shared with is carried over to the users of this
 * vault with those usernames (src/imports/restored-shares.ts).
 */
export function mapVaultEntry(entry: ExportEntry, cellar?: EntryCellar): MapResult {
  const known = subtypesOf(entry.type).includes(entry.subtype);
  const { subtype, original } = known
    ? { subtype: entry.subtype, original: null }
    : closestSubtype(entry.type, [entry.subtype]);
  return checked({
    type: entry.type,
    name: entry.name.trim(),
    subtype,
    makerName: entry.maker.trim(),
    rating: entry.status === 'TO_TRY' ? 0 : entry.rating,
    notes: notesOf([entry.notes, labelled('Subtype', original)]),
    status: entry.status,
    inCellar: entry.inCellar,
    createdAt: Date.parse(entry.createdAt),
    updatedAt: Date.parse(entry.updatedAt),
    photo: entry.photo,
    sharedWith: entry.sharedWith,
    visibility: VISIBILITIES.includes(entry.visibility as Visibility)
      ? { visibility: entry.visibility as Visibility, federated: entry.federated }
      : undefined,
    drinkFrom: entry.drinkFrom ?? null,
    drinkUntil: entry.drinkUntil ?? null,
    bottles: cellar?.bottles,
    tastings: cellar?.tastings,
    events: cellar?.events,
  });
}

/** Each place's path of names from the top (a parent missing or looping ends the path). */
function placePaths(places: VaultCellar['places']): Map<number, string[]> {
  const byId = new Map(places.map((p) => [p.id, p]));
  const paths = new Map<number, string[]>();
  for (const place of places) {
    const path: string[] = [];
    const seen = new Set<number>();
    for (let p = byId.get(place.id); p && !seen.has(p.id); p = byId.get(p.parentId ?? -1)) {
      seen.add(p.id);
      path.unshift(p.name.trim());
    }
    paths.set(place.id, path.slice(0, PLACE_MAX_DEPTH));
  }
  return paths;
}

/**
 * The rows of a vault export: its entries with what cellar.json and tastings.json say of each.
 * Every place (so the empty ones too) and the bottle events of entries the export no longer
 * holds go with the first entry, so that they are written once, with it.
 */
export function vaultRows(
  entries: readonly ExportEntry[],
  cellar: VaultCellar | null,
  tastings: VaultTastings | null,
): MapResult[] {
  const paths = placePaths(cellar?.places ?? []);
  const ofEntry = new Map<number, EntryCellar>(
    entries.map((e) => [e.id, { bottles: [], tastings: [], events: [] }]),
  );
  for (const b of cellar?.bottles ?? []) {
    const price = b.price === null || b.currency === null ? null : Math.round(b.price * 100);
    ofEntry.get(b.entryId)?.bottles.push({
      quantity: b.quantity,
      sizeMl: b.sizeMl,
      vintage: b.vintage,
      place: b.placeId === null ? [] : (paths.get(b.placeId) ?? []),
      purchasedOn: b.purchasedOn,
      priceMinor: price,
      currency: price === null ? null : b.currency,
      note: b.note,
      createdAt: Date.parse(b.createdAt),
      updatedAt: Date.parse(b.updatedAt),
    });
  }
  const orphans: ImportedEvent[] = [];
  for (const e of cellar?.bottleEvents ?? []) {
    const event = { kind: e.kind, change: e.change, at: Date.parse(e.at) };
    const entry = e.entryId === null ? undefined : ofEntry.get(e.entryId);
    if (entry) entry.events.push({ ...event, ofEntry: true });
    else orphans.push({ ...event, ofEntry: false });
  }
  for (const t of tastings?.tastings ?? []) {
    ofEntry.get(t.entryId)?.tastings.push({
      tastedOn: t.tastedOn,
      rating: t.rating,
      notes: t.notes,
      photo: t.photo,
      vintage: t.vintage,
      opened: t.opened,
      createdAt: Date.parse(t.createdAt),
      updatedAt: Date.parse(t.updatedAt),
    });
  }
  return entries.map((entry, i) => {
    const result = mapVaultEntry(entry, ofEntry.get(entry.id));
    if (i === 0 && result.ok === true) {
      result.row.places = (cellar?.places ?? []).map((p) => ({
        path: paths.get(p.id)!,
        createdAt: Date.parse(p.createdAt),
      }));
      result.row.events = [...(result.row.events ?? []), ...orphans];
    }
    return result;
  });
}
