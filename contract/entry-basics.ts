import { z } from 'zod';
import { BEVERAGE_STATUSES, BEVERAGE_TYPES } from './enums.ts';

// The basic fields of an entry: what it is and what its owner made of it. This is their one
// definition; every shape that carries an entry takes them from here and adds its own fields:
// the API's entry (contract/beverages.ts) and received entry (contract/social.ts), an entry's
// Note and its reader (federation/note.ts, note-content.ts, note-reader.ts, whose vault terms
// federation/vault-context.ts maps to these names), an imported row (src/imports/rows.ts), a
// stored remote entry (src/remote-entries/repository.ts) and the client's entry form
// (web/src/vault/entry-form.ts). A new field added here is a type error in each of them until
// it is carried (test/lint/entry-basics.test.ts checks the lists that are not types).

export const entryBasicsSchema = z.object({
  type: z.enum(BEVERAGE_TYPES),
  name: z.string(),
  subtype: z.string(),
  /** '' when none. */
  makerName: z.string(),
  /** 0 to 5; 0 while to-try. */
  rating: z.number().int(),
  /** '' when none. */
  notes: z.string(),
  /** TRIED or TO_TRY; in the API, for an entry shared with the viewer: the list they put it in. */
  status: z.enum(BEVERAGE_STATUSES),
  /** Whether the owner marked it as kept at home (the 'In cellar' flag). */
  inCellar: z.boolean(),
});
export type EntryBasics = z.infer<typeof entryBasicsSchema>;
export type EntryBasicField = keyof EntryBasics;

/** The names of the basic fields, in the order above. */
export const ENTRY_BASIC_FIELDS: readonly EntryBasicField[] = entryBasicsSchema.keyof().options;

/**
 * The basic fields an entry received from another vault keeps: all but the cellar flag, which
 * is the author's own business.
 */
export const remoteEntryBasicsSchema = entryBasicsSchema.omit({ inCellar: true });
export type RemoteEntryBasics = z.infer<typeof remoteEntryBasicsSchema>;

const REMOTE_ENTRY_BASIC_FIELDS = remoteEntryBasicsSchema.keyof().options;

function pick<T extends object>(source: T, fields: readonly (keyof T)[]): T {
  const picked: Partial<T> = {};
  for (const field of fields) picked[field] = source[field];
  return picked as T;
}

/** The basic fields of something that carries them (an imported row, …), without the rest. */
export const entryBasicsOf = (source: EntryBasics): EntryBasics => pick(source, ENTRY_BASIC_FIELDS);

/** The basic fields a received entry keeps, from something that carries them (a Note read). */
export const remoteEntryBasicsOf = (source: RemoteEntryBasics): RemoteEntryBasics =>
  pick(source, REMOTE_ENTRY_BASIC_FIELDS);
