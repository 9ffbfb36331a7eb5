import type { ExportEntry } from '../../../contract/export.ts';
import { VISIBILITIES, type Visibility } from '../../../contract/enums.ts';
import { subtypesOf } from '../../beverages/catalog.ts';
import { closestSubtype } from '../subtypes.ts';
import { checked, labelled, notesOf, type MapResult } from '../rows.ts';

/**
 * An entry of the vault's own export (entries.json): taken as it is, with its dates and photo.
 * A subtype this vault's catalogue lacks becomes the closest one, the original kept in the notes.
 * Its visibility is kept when the export has one this vault knows (else the importer's
 * default applies); whom it was shared with is carried over to the users of this vault with
 * those usernames (src/imports/restored-shares.ts).
 */
export function mapVaultEntry(entry: ExportEntry): MapResult {
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
  });
}
