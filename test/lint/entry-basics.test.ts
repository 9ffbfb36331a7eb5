// An entry's basic fields are defined once (contract/entry-basics.ts): the shapes that carry an
// entry take them from there, the Note's terms and the import map to every one of them, and the
// places that once typed them again do not.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { beverageSchema } from '../../contract/beverages.ts';
import {
  ENTRY_BASIC_FIELDS,
  entryBasicsOf,
  entryBasicsSchema,
  type EntryBasics,
} from '../../contract/entry-basics.ts';
import type { ExportEntry } from '../../contract/export.ts';
import { remoteEntrySchema } from '../../contract/social.ts';
import { vaultFieldsOf } from '../../federation/note.ts';
import { readVaultNote } from '../../federation/note-reader.ts';
import { ENTRY_TERMS } from '../../federation/vault-context.ts';
import { mapVaultEntry } from '../../src/imports/formats/vault.ts';
import { entry, noteJson } from '../federation/note-fixtures.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

/** Every basic field set, none empty or a default, so that a field dropped on the way shows. */
const basics: EntryBasics = {
  type: 'WINE',
  name: 'Barolo Castiglione',
  subtype: 'Nebbiolo',
  makerName: 'Vietti',
  rating: 4,
  notes: 'Tar and roses.',
  status: 'TRIED',
  inCellar: true,
};

/**
 * The places that carry an entry and once typed its basic fields again. Each may name a few of
 * them (a tasting's rating and notes), never three in a row: that is a copy of the list.
 */
const CARRIERS = [
  'contract/beverages.ts',
  'contract/social.ts',
  'federation/note.ts',
  'federation/note-content.ts',
  'federation/note-reader.ts',
  'federation/tasting-note.ts',
  'src/imports/rows.ts',
  'src/remote-entries/repository.ts',
  'web/src/vault/entry-form.ts',
];

/** Lines that declare a basic field (`makerName: string;`, `makerName: z.string(),`). */
function declarations(text: string): number[] {
  const fields = ENTRY_BASIC_FIELDS.join('|');
  const declaration = new RegExp(`^\\s*(${fields})\\??: ([^,]*;|z\\.)`);
  return text.split('\n').flatMap((line, index) => (declaration.test(line) ? [index] : []));
}

/** Whether three declarations stand within a few lines of each other. */
function holdsACopy(text: string): boolean {
  const lines = declarations(text);
  return lines.some((line, i) => i + 2 < lines.length && lines[i + 2]! - line <= 8);
}

describe("an entry's basic fields", () => {
  it('are the same schemas in the API entry and the received entry', () => {
    for (const field of ENTRY_BASIC_FIELDS) {
      expect(beverageSchema.shape[field], field).toBe(entryBasicsSchema.shape[field]);
    }
    for (const field of ENTRY_BASIC_FIELDS.filter((f) => f !== 'inCellar')) {
      expect(remoteEntrySchema.shape[field], field).toBe(entryBasicsSchema.shape[field]);
    }
  });

  it("each ride in a vault term of an entry's Note, and are read back from it", async () => {
    const terms = Object.keys(vaultFieldsOf(entry(basics)));
    expect(terms).toEqual(Object.values(ENTRY_TERMS));
    expect(Object.keys(ENTRY_TERMS).sort()).toEqual([...ENTRY_BASIC_FIELDS].sort());
    const read = readVaultNote(await noteJson(basics));
    expect(read && entryBasicsOf(read)).toEqual(basics);
  });

  it("are each imported from the vault's own export", () => {
    const exported: ExportEntry = {
      ...basics,
      maker: basics.makerName,
      id: 1,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      photo: null,
      sharedWith: [],
    };
    const mapped = mapVaultEntry(exported);
    expect(mapped.ok).toBe(true);
    expect(mapped.ok === true && entryBasicsOf(mapped.row)).toEqual(basics);
  });

  it('are not typed again where an entry is carried', () => {
    const copies = CARRIERS.filter((file) =>
      holdsACopy(fs.readFileSync(path.join(root, file), 'utf8')),
    );
    expect(copies).toEqual([]);
  });

  it('would be found typed again (the check above is not blind)', () => {
    const copy = 'interface Row {\n  type: BeverageType;\n  name: string;\n  makerName: string;\n}';
    expect(holdsACopy(copy)).toBe(true);
    const zodCopy = 'z.object({\n  name: z.string(),\n  subtype: z.string(),\n  notes: z.string(),';
    expect(holdsACopy(zodCopy)).toBe(true);
    expect(holdsACopy('interface Tasting {\n  rating: number | null;\n  notes: string;\n}')).toBe(
      false,
    );
  });
});
