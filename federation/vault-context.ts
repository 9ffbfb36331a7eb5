import type { EntryBasicField } from '../contract/entry-basics.ts';

// The vault's JSON-LD vocabulary: the entry fields that ride along with a Note so that another
// vault can show it as an entry card and clone it (Mastodon and others ignore them).
//
// Each vault names its terms under its own origin: {origin}/ns/vault#entryType and so on. The
// document at {origin}/ns/vault (VAULT_CONTEXT_PATH) describes them. Notes never reference that
// document as a remote @context: they carry the one prefix definition inline, so no receiver
// has to fetch anything to understand them.

/** Where the vocabulary document is served, under VAULT_ORIGIN. */
export const VAULT_CONTEXT_PATH = '/ns/vault';

/** The prefix the vault's properties are compacted with (`vault:rating`). */
export const VAULT_PREFIX = 'vault';

/**
 * The extension's terms, in the order they appear in a Note: the XSD type of each (what the
 * vocabulary document says) and, for a basic field of the entry (contract/entry-basics.ts), the
 * field it carries. All literals (JSON strings, numbers, booleans); absent means the default
 * shown.
 */
export const VAULT_TERMS = {
  /** WHISKEY, WINE or BEER. */
  entryType: { field: 'type', type: 'string' },
  /** The entry's name, plain text. */
  entryName: { field: 'name', type: 'string' },
  /** One of the catalogue's subtypes of entryType. */
  subtype: { field: 'subtype', type: 'string' },
  /** The distiller, winery or brewing company, plain text; absent when none. */
  makerName: { field: 'makerName', type: 'string' },
  /** A whole number from 0 to 5 (0 while the entry is to try). */
  rating: { field: 'rating', type: 'integer' },
  /** TRIED or TO_TRY. */
  status: { field: 'status', type: 'string' },
  /** Whether a bottle is in the author's cellar; false when absent. */
  inCellar: { field: 'inCellar', type: 'boolean' },
  /** The tasting notes, plain text; absent when none. */
  notes: { field: 'notes', type: 'string' },
  /** On a tasting's Note: the day it was tasted, 'YYYY-MM-DD' (absent on an entry's Note). */
  tastedOn: { type: 'date' },
  /** On a tasting's Note: whether it came from opening a bottle; false when absent. */
  openedBottle: { type: 'boolean' },
  /** On a tasting's Note: the vintage of the bottle it was opened from; absent when none. */
  vintage: { type: 'integer' },
} as const satisfies Record<
  string,
  { field?: EntryBasicField; type: 'string' | 'integer' | 'boolean' | 'date' }
>;

export type VaultTerm = keyof typeof VAULT_TERMS;

/**
 * The term each basic field of an entry rides in, in the order of VAULT_TERMS: the Note's
 * builders (note.ts, tasting-note.ts) and its reader (note-reader.ts) all map through it.
 */
export const ENTRY_TERMS = Object.fromEntries(
  Object.entries(VAULT_TERMS).flatMap(([term, definition]) =>
    'field' in definition ? [[definition.field, term]] : [],
  ),
) as Record<EntryBasicField, VaultTerm>;

/** The namespace IRI of a vault's terms: `{origin}/ns/vault#`. */
export function vaultNamespace(origin: string): string {
  return `${new URL(origin).origin}${VAULT_CONTEXT_PATH}#`;
}

/** The inline @context entry a Note or an activity carries: `{ "vault": "{namespace}" }`. */
export function vaultContextEntry(origin: string): Record<string, string> {
  return { [VAULT_PREFIX]: vaultNamespace(origin) };
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/**
 * The document served at {origin}/ns/vault (as application/ld+json): a JSON-LD context that
 * defines the prefix and every term, so `{"@context": "{origin}/ns/vault"}` also works for a
 * processor that fetches it. Types are documentation here: the values on the wire are plain
 * JSON literals.
 */
export function vaultContextDocument(origin: string): {
  '@context': Record<string, string | { '@id': string; '@type': string }>;
} {
  const namespace = vaultNamespace(origin);
  const context: Record<string, string | { '@id': string; '@type': string }> = {
    [VAULT_PREFIX]: namespace,
  };
  for (const [term, { type }] of Object.entries(VAULT_TERMS)) {
    context[term] = { '@id': `${VAULT_PREFIX}:${term}`, '@type': XSD + type };
  }
  return { '@context': context };
}
