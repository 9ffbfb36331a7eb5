import { Create, Delete, Image, Note, Tombstone, Update } from '@fedify/vocab';
import type { EntryBasicField, EntryBasics } from '../contract/entry-basics.ts';
import { noteContent } from './note-content.ts';
import { profileUrl } from './paths.ts';
import { instantFromDate } from './temporal.ts';
import {
  ENTRY_TERMS,
  VAULT_PREFIX,
  type VaultTerm,
  vaultContextEntry,
  vaultNamespace,
} from './vault-context.ts';

// An entry as an ActivityPub Note, and the Create / Update / Delete that carry it to the
// author's followers. Pure: plain data in, @fedify/vocab objects out, ready for
// ctx.sendActivity (see docs/federation.md, "Entries as Notes").
//
// @fedify/vocab has no room for properties it does not know: Fedify serialises what it sends
// with toJsonLd({ format: 'compact' }), which rebuilds the JSON-LD from the class's own fields
// and drops anything else. So the vault's extension rides in subclasses that add it on every
// serialisation path. VaultNote adds the entry fields to its expanded form (absolute IRIs,
// which is what an enclosing activity compacts) and, serialised on its own, as `vault:` terms
// with the prefix in its @context. VaultCreate / VaultUpdate turn the embedded Note's absolute
// IRIs back into `vault:` terms and add the prefix to the activity's @context. Fedify's clone()
// (used when it signs) builds `new this.constructor(...)`, so the subclasses survive signing.

/** An entry as the federation sees it: its basic fields and what its Note adds. */
export interface NoteEntry extends EntryBasics {
  id: number;
  createdAt: Date;
  updatedAt: Date;
  /** The bottle photo at a URL remote servers can fetch (absolute, or a path under origin). */
  photo: { url: string; width: number; height: number } | null;
  /** Which generation of the Note id (note-generations.ts); 0 when left out. */
  noteGeneration?: number;
}

export interface NoteAuthor {
  username: string;
  fullName: string;
}

export interface NoteInput {
  entry: NoteEntry;
  author: NoteAuthor;
  /** VAULT_ORIGIN. */
  origin: string;
}

/** The extension's values, keyed by term (see VAULT_TERMS): JSON literals. */
export type VaultFields = Partial<Record<VaultTerm, string | number | boolean>>;

type JsonObject = Record<string, unknown>;
type ToJsonLdOptions = Parameters<Note['toJsonLd']>[0];

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The @context with `{ vault: namespace }` appended (once). */
function withVaultContext(context: unknown, origin: string): unknown[] {
  const entries = Array.isArray(context) ? [...context] : context === undefined ? [] : [context];
  const namespace = vaultNamespace(origin);
  const present = entries.some((entry) => isObject(entry) && entry[VAULT_PREFIX] === namespace);
  return present ? entries : [...entries, vaultContextEntry(origin)];
}

/** A Note that carries the vault's entry fields. */
export class VaultNote extends Note {
  vaultFields: VaultFields = {};

  override clone(...args: Parameters<Note['clone']>): Note {
    const copy = super.clone(...args);
    if (copy instanceof VaultNote) copy.vaultFields = this.vaultFields;
    return copy;
  }

  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    const origin = this.id?.origin;
    const fields = Object.entries(this.vaultFields);
    if (origin === undefined || fields.length === 0) return json;
    if (options.format === 'expand') {
      const node: unknown = Array.isArray(json) ? json[0] : undefined;
      if (isObject(node)) {
        const namespace = vaultNamespace(origin);
        for (const [term, value] of fields) node[namespace + term] = [{ '@value': value }];
      }
      return json;
    }
    if (!isObject(json)) return json;
    const compact: JsonObject = { ...json, '@context': withVaultContext(json['@context'], origin) };
    for (const [term, value] of fields) compact[`${VAULT_PREFIX}:${term}`] = value;
    return compact;
  }
}

/** An activity's compact form with its embedded VaultNote's properties as `vault:` terms. */
function compactVaultTerms(json: unknown, object: unknown): unknown {
  if (!isObject(json) || !isObject(json.object) || !(object instanceof VaultNote)) return json;
  const origin = object.id?.origin;
  if (origin === undefined) return json;
  const namespace = vaultNamespace(origin);
  const note: JsonObject = {};
  let found = false;
  for (const [key, value] of Object.entries(json.object)) {
    found ||= key.startsWith(namespace);
    note[key.startsWith(namespace) ? `${VAULT_PREFIX}:${key.slice(namespace.length)}` : key] =
      value;
  }
  if (!found) return json;
  return { ...json, '@context': withVaultContext(json['@context'], origin), object: note };
}

/** A Create whose embedded VaultNote keeps readable `vault:` terms on the wire. */
export class VaultCreate extends Create {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options.format === 'expand' ? json : compactVaultTerms(json, await this.getObject());
  }
}

/** An Update whose embedded VaultNote keeps readable `vault:` terms on the wire. */
export class VaultUpdate extends Update {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options.format === 'expand' ? json : compactVaultTerms(json, await this.getObject());
  }
}

/** The author's actor: {origin}/users/{username}. */
export function actorUrl(origin: string, username: string): URL {
  return new URL(`/users/${encodeURIComponent(username)}`, origin);
}

/** The author's followers collection, the only audience of a Note. */
export function followersUrl(origin: string, username: string): URL {
  return new URL(`/users/${encodeURIComponent(username)}/followers`, origin);
}

/**
 * The Note's id: {origin}/users/{username}/entries/{id}, stable while the entry stays in the
 * fediverse; {id}-{generation} from the entry's first return after it left (note-generations.ts).
 */
export function noteUrl(origin: string, username: string, entryId: number, generation = 0): URL {
  const id = generation > 0 ? `${entryId}-${generation}` : String(entryId);
  return new URL(`/users/${encodeURIComponent(username)}/entries/${id}`, origin);
}

/** The basic fields a Note leaves out when they are empty (a reader takes '' for them). */
const LEFT_OUT_WHEN_EMPTY: ReadonlySet<EntryBasicField> = new Set(['makerName', 'notes']);

/**
 * The vault terms of basic entry fields, in the Note's order (ENTRY_TERMS): every field given,
 * but an empty maker or notes.
 */
export function entryTerms(basics: Partial<EntryBasics>): VaultFields {
  const fields: VaultFields = {};
  for (const [field, term] of Object.entries(ENTRY_TERMS) as [EntryBasicField, VaultTerm][]) {
    const value = basics[field];
    if (value === undefined) continue;
    if (LEFT_OUT_WHEN_EMPTY.has(field) && String(value).trim() === '') continue;
    fields[term] = value;
  }
  return fields;
}

/** The machine-readable entry fields: its basic fields, with rating 0 while to-try. */
export function vaultFieldsOf(entry: NoteEntry): VaultFields {
  return entryTerms({ ...entry, rating: entry.status === 'TO_TRY' ? 0 : entry.rating });
}

/** The alt text of the bottle photo. */
export function photoAltText(name: string): string {
  return `Bottle photo of ${name}`;
}

/** Whether the entry was edited after it was created (then the Note has `updated`). */
function isEdited(entry: NoteEntry): boolean {
  return entry.updatedAt.getTime() > entry.createdAt.getTime();
}

/** Where a Note's `replies` collection is served: its id followed by /replies. */
export function repliesUrl(noteId: URL): URL {
  return new URL(`${noteId.href}/replies`);
}

/** The entry as a Note addressed to the author's followers only. */
export function entryNote({ entry, author, origin }: NoteInput): VaultNote {
  const profile = profileUrl(origin, author.username);
  const id = noteUrl(origin, author.username, entry.id, entry.noteGeneration);
  const note = new VaultNote({
    id,
    // Its comments, for those who may read the Note (entry-replies.ts).
    replies: repliesUrl(id),
    attribution: actorUrl(origin, author.username),
    to: followersUrl(origin, author.username),
    published: instantFromDate(entry.createdAt),
    updated: isEdited(entry) ? instantFromDate(entry.updatedAt) : null,
    url: profile,
    content: noteContent({
      ...entry,
      authorName: author.fullName,
      handle: `${author.username}@${new URL(origin).host}`,
      profileUrl: profile.href,
    }),
    attachments: entry.photo
      ? [
          new Image({
            mediaType: 'image/jpeg',
            url: new URL(entry.photo.url, `${origin}/`),
            width: entry.photo.width,
            height: entry.photo.height,
            name: photoAltText(entry.name),
          }),
        ]
      : [],
  });
  note.vaultFields = vaultFieldsOf(entry);
  return note;
}

/** Create(Note), id {noteId}#create, published when the entry was created. */
export function createNoteActivity(input: NoteInput): VaultCreate {
  const note = entryNote(input);
  const { origin, author, entry } = input;
  return new VaultCreate({
    id: new URL(`${note.id!.href}#create`),
    actor: actorUrl(origin, author.username),
    to: followersUrl(origin, author.username),
    published: instantFromDate(entry.createdAt),
    object: note,
  });
}

/** Update(Note), id {noteId}#update-{updatedAt in ms}: one id per edit. */
export function updateNoteActivity(input: NoteInput): VaultUpdate {
  const note = entryNote(input);
  const { origin, author, entry } = input;
  return new VaultUpdate({
    id: new URL(`${note.id!.href}#update-${entry.updatedAt.getTime()}`),
    actor: actorUrl(origin, author.username),
    to: followersUrl(origin, author.username),
    published: instantFromDate(entry.updatedAt),
    object: note,
  });
}

/** What a deleted entry's Note is replaced by. */
export interface DeletedNote {
  origin: string;
  username: string;
  entryId: number;
  /** The generation of the Note id that is deleted (0 when left out). */
  generation?: number;
  deletedAt: Date;
}

/** The Tombstone of a deleted entry's Note (what its id answers with 410, and Delete carries). */
export function noteTombstone(
  deleted: Omit<DeletedNote, 'deletedAt'> & { deletedAt?: Date | undefined },
): Tombstone {
  const { origin, username, entryId, generation, deletedAt } = deleted;
  return new Tombstone({
    id: noteUrl(origin, username, entryId, generation),
    formerType: Note,
    deleted: deletedAt ? instantFromDate(deletedAt) : null,
  });
}

/** Delete(Tombstone), id {noteId}#delete. */
export function deleteNoteActivity(input: DeletedNote): Delete {
  const tombstone = noteTombstone(input);
  return new Delete({
    id: new URL(`${tombstone.id!.href}#delete`),
    actor: actorUrl(input.origin, input.username),
    to: followersUrl(input.origin, input.username),
    published: instantFromDate(input.deletedAt),
    object: tombstone,
  });
}
