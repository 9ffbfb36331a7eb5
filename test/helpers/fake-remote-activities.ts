import { randomUUID } from 'node:crypto';

/**
 * Mastodon-shaped activities (as Mastodon 4 serializes them) from an account of the fake
 * remote, with ids on its origin. Plain JSON, built without Fedify.
 */

export const AS_CONTEXT = 'https://www.w3.org/ns/activitystreams';
export const SECURITY_CONTEXT = 'https://w3id.org/security/v1';
export const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';

/** The inline terms Mastodon adds to the context of a status. */
export const MASTODON_STATUS_TERMS = {
  ostatus: 'http://ostatus.org#',
  atomUri: 'ostatus:atomUri',
  inReplyToAtomUri: 'ostatus:inReplyToAtomUri',
  conversation: 'ostatus:conversation',
  sensitive: 'as:sensitive',
  toot: 'http://joinmastodon.org/ns#',
  votersCount: 'toot:votersCount',
  blurhash: 'toot:blurhash',
  focalPoint: { '@container': '@list', '@id': 'toot:focalPoint' },
} as const;

/** The inline terms Mastodon adds to the context of an actor. */
export const MASTODON_ACTOR_TERMS = {
  manuallyApprovesFollowers: 'as:manuallyApprovesFollowers',
  toot: 'http://joinmastodon.org/ns#',
  featured: { '@id': 'toot:featured', '@type': '@id' },
  discoverable: 'toot:discoverable',
  indexable: 'toot:indexable',
  memorial: 'toot:memorial',
  schema: 'http://schema.org#',
  PropertyValue: 'schema:PropertyValue',
  value: 'schema:value',
} as const;

/** What the builders need of an account. */
export interface ActivityAuthor {
  username: string;
  origin: string;
  /** The actor id. */
  id: string;
  followers: string;
}

export type Json = Record<string, unknown>;

/** A JSON-LD extension: its context (a URL or inline terms) and the properties it adds. */
export interface NoteExtension {
  context: string | Json;
  properties: Json;
}

export interface NoteInput {
  content: string;
  /** Followers only by default (Mastodon's "followers-only" visibility). */
  to?: string[];
  cc?: string[];
  attachment?: Json[];
  extension?: NoteExtension;
  published?: Date;
  summary?: string | null;
}

let sequence = 0;
/** A Mastodon-like status id: increasing, unique in this process. */
function nextId(): string {
  sequence += 1;
  return `${Date.now()}${String(sequence).padStart(4, '0')}`;
}

function withoutContext(activity: Json): Json {
  const { '@context': _context, ...rest } = activity;
  return rest;
}

export function follow(from: ActivityAuthor, object: string): Json {
  return {
    '@context': AS_CONTEXT,
    id: `${from.origin}/${randomUUID()}`,
    type: 'Follow',
    actor: from.id,
    object,
  };
}

/** Undo of a Follow, Like or Announce this account sent (embedded, as Mastodon does). */
export function undo(from: ActivityAuthor, activity: Json): Json {
  return {
    '@context': AS_CONTEXT,
    id: `${from.id}#${String(activity.type).toLowerCase()}s/${nextId()}/undo`,
    type: 'Undo',
    actor: from.id,
    object: withoutContext(activity),
  };
}

/** Accept of a Follow this account received; the Follow is embedded whole. */
export function accept(from: ActivityAuthor, received: Json): Json {
  return answer('Accept', from, received);
}

export function reject(from: ActivityAuthor, received: Json): Json {
  return answer('Reject', from, received);
}

function answer(type: 'Accept' | 'Reject', from: ActivityAuthor, received: Json): Json {
  return {
    '@context': AS_CONTEXT,
    id: `${from.id}#${type.toLowerCase()}s/follows/${nextId()}`,
    type,
    actor: from.id,
    object: withoutContext(received),
  };
}

/** What Mastodon sends when an account is deleted: Delete whose object is the actor. */
export function deleteActor(from: ActivityAuthor): Json {
  return {
    '@context': [AS_CONTEXT, SECURITY_CONTEXT],
    id: `${from.id}#delete`,
    type: 'Delete',
    actor: from.id,
    to: [PUBLIC],
    object: from.id,
  };
}

/** Update(Person) with the actor's current document embedded. */
export function updatePerson(from: ActivityAuthor, actorDocument: Json): Json {
  return {
    '@context': actorDocument['@context'] ?? [AS_CONTEXT, SECURITY_CONTEXT],
    id: `${from.id}#updates/${nextId()}`,
    type: 'Update',
    actor: from.id,
    to: [PUBLIC],
    object: withoutContext(actorDocument),
  };
}

/** A Note (a status) with Mastodon's fields; its id is `{actor}/statuses/{n}`. */
export function note(from: ActivityAuthor, input: NoteInput): Json {
  const id = `${from.id}/statuses/${nextId()}`;
  const published = (input.published ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    id,
    type: 'Note',
    summary: input.summary ?? null,
    inReplyTo: null,
    published,
    url: `${from.origin}/@${from.username}/${id.split('/').pop()}`,
    attributedTo: from.id,
    to: input.to ?? [from.followers],
    cc: input.cc ?? [],
    sensitive: false,
    atomUri: id,
    inReplyToAtomUri: null,
    conversation: `tag:${new URL(from.origin).host},${published.slice(0, 10)}:objectId=${id.split('/').pop()}:objectType=Conversation`,
    content: input.content,
    contentMap: { en: input.content },
    attachment: input.attachment ?? [],
    tag: [],
    ...input.extension?.properties,
  };
}

function statusContext(extension?: NoteExtension): unknown[] {
  return [AS_CONTEXT, MASTODON_STATUS_TERMS, ...(extension ? [extension.context] : [])];
}

/** Create(Note): `{ note, activity }`, the activity addressed like the note. */
export function createNote(from: ActivityAuthor, input: NoteInput): { note: Json; activity: Json } {
  const object = note(from, input);
  return {
    note: { '@context': statusContext(input.extension), ...object },
    activity: {
      '@context': statusContext(input.extension),
      id: `${object.id as string}/activity`,
      type: 'Create',
      actor: from.id,
      published: object.published,
      to: object.to,
      cc: object.cc,
      object,
    },
  };
}

/** Update(Note) of an edited note (Mastodon sets `updated` and sends the whole note). */
export function updateNote(from: ActivityAuthor, edited: Json, extension?: NoteExtension): Json {
  const updated = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    '@context': statusContext(extension),
    id: `${edited.id as string}#updates/${nextId()}`,
    type: 'Update',
    actor: from.id,
    published: updated,
    to: edited.to,
    cc: edited.cc,
    object: { ...withoutContext(edited), updated },
  };
}

/** Delete of a note: its object a Tombstone. */
export function deleteNote(from: ActivityAuthor, deleted: Json): Json {
  return {
    '@context': [AS_CONTEXT, MASTODON_STATUS_TERMS],
    id: `${deleted.id as string}#delete`,
    type: 'Delete',
    actor: from.id,
    to: deleted.to ?? [PUBLIC],
    cc: deleted.cc ?? [],
    object: { id: deleted.id, type: 'Tombstone', atomUri: deleted.id },
  };
}

export function like(from: ActivityAuthor, object: string): Json {
  return {
    '@context': AS_CONTEXT,
    id: `${from.id}#likes/${nextId()}`,
    type: 'Like',
    actor: from.id,
    object,
  };
}

/** A boost: public, to the account's followers and the object's author (when given). */
export function announce(from: ActivityAuthor, object: string, objectAuthor?: string): Json {
  const id = `${from.id}/statuses/${nextId()}`;
  return {
    '@context': AS_CONTEXT,
    id: `${id}/activity`,
    type: 'Announce',
    actor: from.id,
    published: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    to: [PUBLIC],
    cc: [...(objectAuthor ? [objectAuthor] : []), from.followers],
    object,
  };
}
