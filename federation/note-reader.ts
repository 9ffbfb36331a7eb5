import { z } from 'zod';
import { entryBasicsSchema, type EntryBasics } from '../contract/entry-basics.ts';
import type { BeverageType } from '../contract/enums.ts';
import {
  MAKER_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NOTES_MAX_LENGTH,
  RATING_MAX,
  RATING_MIN,
  firstSubtype,
  subtypesOf,
} from '../src/beverages/catalog.ts';
import { ENTRY_TERMS, VAULT_TERMS, vaultNamespace } from './vault-context.ts';

// A received Note (compact JSON-LD, as it arrives) → a remote entry, or undefined when it is not
// a vault entry or not a valid one. Never throws, never fetches anything: the vault's terms are
// recognised from inline @context definitions (a prefix, a term) or as absolute IRIs, under the
// namespace of the Note's own origin ({origin of id}/ns/vault#). The ActivityStreams properties
// are read by their usual compact names, as every fediverse server does.

/**
 * An entry another vault published, as the feed stores it: its basic fields (the subtype always
 * one of the catalogue's subtypes of `type`) and what the Note says besides.
 */
export interface RemoteEntry extends EntryBasics {
  noteId: string;
  attributedTo: string;
  /** Set when the Note is a tasting of the entry (the terms `tastedOn`, `openedBottle`, `vintage`). */
  tasting?: { tastedOn: string; opened: boolean; vintage: number | null };
  photo?: { url: string; width: number | null; height: number | null; mediaType: string };
  published: Date;
  updated?: Date;
}

const MAX_ID_LENGTH = 2048;
/** Subtype text kept in the notes when it is not in the catalogue. */
const MAX_FOREIGN_SUBTYPE = 100;
const MAX_CONTEXT_ENTRIES = 64;
const MAX_ATTACHMENTS = 16;
const MAX_PHOTO_SIDE = 100_000;
const PHOTO_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
]);

type Json = Record<string, unknown>;
type Literal = string | number | boolean;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function httpUrl(value: string): URL | undefined {
  if (value.length > MAX_ID_LENGTH || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

const date = z.iso.datetime({ offset: true }).transform((text) => new Date(text));

const noteSchema = z.object({
  id: z.string(),
  type: z.literal('Note'),
  attributedTo: z.string(),
  published: date,
  updated: date.optional(),
});

/**
 * The vault terms, read by the names of the entry's fields (ENTRY_TERMS): its basic fields, of
 * which a Note may leave out the subtype, maker, cellar flag and notes, and a tasting's own.
 */
const extensionSchema = entryBasicsSchema
  .partial({ subtype: true, makerName: true, inCellar: true, notes: true })
  .extend({
    rating: entryBasicsSchema.shape.rating.min(RATING_MIN).max(RATING_MAX),
    // A tasting's Note (federation/tasting-note.ts).
    tastedOn: z.iso.date().optional(),
    openedBottle: z.boolean().optional(),
    vintage: z.number().int().min(1000).max(9999).optional(),
  });

/** The field name of each entry term (`entryType` → `type`); other terms keep their names. */
const FIELD_OF_TERM: ReadonlyMap<string, string> = new Map(
  Object.entries(ENTRY_TERMS).map(([field, term]) => [term, field]),
);

/** Term → IRI (or compact IRI) from the inline parts of @context; remote ones are skipped. */
function termDefinitions(contexts: unknown[]): Map<string, string> {
  const terms = new Map<string, string>();
  const queue = contexts.flatMap((context) => (Array.isArray(context) ? context : [context]));
  for (const context of queue.slice(0, MAX_CONTEXT_ENTRIES)) {
    if (!isObject(context)) continue;
    for (const [term, definition] of Object.entries(context)) {
      if (term.startsWith('@')) continue;
      if (typeof definition === 'string') terms.set(term, definition);
      else if (isObject(definition) && typeof definition['@id'] === 'string') {
        terms.set(term, definition['@id']);
      } else terms.delete(term);
    }
  }
  return terms;
}

/** A property name as an absolute IRI: `vault:rating`, a defined term, or an IRI as is. */
function expandKey(key: string, terms: Map<string, string>, depth = 0): string | undefined {
  const colon = key.indexOf(':');
  if (colon > 0) {
    const prefix = key.slice(0, colon);
    const suffix = key.slice(colon + 1);
    if (suffix.startsWith('//')) return key;
    const base = terms.get(prefix);
    return base !== undefined && /^https?:\/\//.test(base) ? base + suffix : key;
  }
  const definition = terms.get(key);
  if (definition === undefined || depth > 0) return undefined;
  return expandKey(definition, terms, depth + 1);
}

function literal(value: unknown): Literal | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (isObject(value) && Object.keys(value).every((k) => ['@value', '@type'].includes(k))) {
    return literal(value['@value'] ?? null);
  }
  return undefined;
}

const INVALID = Symbol('invalid');

/**
 * The vault terms the Note carries, keyed by field name (FIELD_OF_TERM); undefined when none;
 * INVALID when one is malformed.
 */
function extensionOf(
  note: Json,
  terms: Map<string, string>,
  namespace: string,
): Record<string, Literal> | undefined | typeof INVALID {
  const found = new Map<string, Literal>();
  for (const [key, value] of Object.entries(note)) {
    const iri = expandKey(key, terms);
    if (iri === undefined || !iri.startsWith(namespace)) continue;
    const term = iri.slice(namespace.length);
    if (!Object.hasOwn(VAULT_TERMS, term)) continue;
    const field = FIELD_OF_TERM.get(term) ?? term;
    const parsed = literal(value);
    if (parsed === undefined || found.has(field)) return INVALID;
    found.set(field, parsed);
  }
  return found.size === 0 ? undefined : Object.fromEntries(found);
}

/** Plain text as stored: control characters (but newlines and tabs) removed, trimmed, cut. */
function cleanText(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '').trim();
  // `max` characters take at most 2 * max UTF-16 units: only that much is split into characters.
  const chars = Array.from(clean.slice(0, 2 * max + 2));
  return chars.length <= max ? clean : chars.slice(0, max).join('').trimEnd();
}

function side(value: unknown): number | null {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value > 0 &&
    value <= MAX_PHOTO_SIDE
    ? value
    : null;
}

/** The first image attachment with a usable URL and media type. */
function photoOf(attachment: unknown): RemoteEntry['photo'] {
  const items = Array.isArray(attachment) ? attachment : [attachment];
  for (const item of items.slice(0, MAX_ATTACHMENTS)) {
    if (!isObject(item) || (item.type !== 'Image' && item.type !== 'Document')) continue;
    const { url, mediaType } = item;
    if (typeof url !== 'string' || typeof mediaType !== 'string') continue;
    const parsed = httpUrl(url);
    if (!parsed || !PHOTO_TYPES.has(mediaType)) continue;
    return { url: parsed.href, width: side(item.width), height: side(item.height), mediaType };
  }
  return undefined;
}

/** The catalogue's spelling of a subtype of `type`, or undefined when it is not one. */
function catalogSubtype(type: BeverageType, subtype: string): string | undefined {
  const lower = subtype.toLowerCase();
  return subtypesOf(type).find((known) => known.toLowerCase() === lower);
}

function read(note: unknown, inheritedContext: unknown): RemoteEntry | undefined {
  if (!isObject(note)) return undefined;
  const base = noteSchema.safeParse(note);
  if (!base.success) return undefined;
  const id = httpUrl(base.data.id);
  const author = httpUrl(base.data.attributedTo);
  if (!id || !author || id.origin !== author.origin) return undefined;

  const terms = termDefinitions([inheritedContext, note['@context']]);
  const raw = extensionOf(note, terms, vaultNamespace(id.origin));
  if (raw === undefined || raw === INVALID) return undefined;
  const ext = extensionSchema.safeParse(raw);
  if (!ext.success) return undefined;
  const { type, status } = ext.data;

  const name = cleanText(ext.data.name, NAME_MAX_LENGTH);
  if (name === '') return undefined;
  const givenSubtype = cleanText(ext.data.subtype ?? '', MAX_FOREIGN_SUBTYPE);
  const subtype = catalogSubtype(type, givenSubtype);
  let notes = cleanText(ext.data.notes ?? '', NOTES_MAX_LENGTH);
  if (subtype === undefined && givenSubtype !== '') {
    notes = cleanText(`Subtype: ${givenSubtype}${notes ? `\n\n${notes}` : ''}`, NOTES_MAX_LENGTH);
  }
  const photo = photoOf(note.attachment);
  const { tastedOn, openedBottle, vintage } = ext.data;
  return {
    noteId: id.href,
    attributedTo: author.href,
    type,
    name,
    subtype: subtype ?? firstSubtype(type),
    makerName: cleanText(ext.data.makerName ?? '', MAKER_MAX_LENGTH),
    rating: status === 'TO_TRY' ? 0 : ext.data.rating,
    status,
    inCellar: ext.data.inCellar ?? false,
    notes,
    ...(tastedOn !== undefined && {
      tasting: { tastedOn, opened: openedBottle ?? false, vintage: vintage ?? null },
    }),
    ...(photo ? { photo } : {}),
    published: base.data.published,
    ...(base.data.updated ? { updated: base.data.updated } : {}),
  };
}

/**
 * A received Note as a remote entry, or undefined when it has no vault extension or anything
 * in it is invalid. `inheritedContext` is the @context of the activity the Note was embedded
 * in (an embedded object has none of its own). Never throws.
 */
export function readVaultNote(note: unknown, inheritedContext?: unknown): RemoteEntry | undefined {
  try {
    return read(note, inheritedContext);
  } catch {
    return undefined;
  }
}

/**
 * The entry in a received Create or Update whose object is an embedded Note (as a vault sends
 * it); undefined for anything else, including an object given only by its id (fetch it and use
 * readVaultNote). Never throws.
 */
export function readVaultNoteFromActivity(activity: unknown): RemoteEntry | undefined {
  try {
    if (!isObject(activity) || (activity.type !== 'Create' && activity.type !== 'Update')) {
      return undefined;
    }
    return read(activity.object, activity['@context']);
  } catch {
    return undefined;
  }
}
