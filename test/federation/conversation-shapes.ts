import { randomUUID } from 'node:crypto';
import {
  AS_CONTEXT,
  MASTODON_STATUS_TERMS,
  PUBLIC,
  type Json,
} from '../helpers/fake-remote-activities.ts';
import type { FakeAccount } from '../helpers/fake-remote.ts';

/**
 * Replies, posts and Likes as Mastodon 4 and GoToSocial send them, read against their code:
 * both address a status by its visibility the same way (Mastodon's ActivityPub::TagManager
 * `to`/`cc`, GoToSocial's StatusToAS): public `to` Public, `cc` the author's followers and the
 * mentioned; unlisted `to` the followers, `cc` Public and the mentioned; followers-only (private)
 * `to` the followers, `cc` the mentioned; direct `to` the mentioned alone. A `Mention` tag's
 * `href` is the account's actor id. Mastodon writes every address list as an array; GoToSocial
 * (go-fed) writes a property with one value as that value alone, and leaves empty ones out.
 */

export type Shape = 'mastodon' | 'gotosocial';
export type PostVisibility = 'public' | 'unlisted' | 'private' | 'direct';

/** Someone a post mentions: their actor id and the name its text shows. */
export interface Mentioned {
  id: string;
  name: string;
}

export interface PostInput {
  /** The Note or comment it answers; none for a post that answers nothing. */
  inReplyTo?: string;
  visibility: PostVisibility;
  mentions: Mentioned[];
  text: string;
  /** Extra addresses in `to` (a vault owner's followers collection, as the vault writes it). */
  to?: string[];
}

function addressing(author: FakeAccount, input: PostInput) {
  const mentioned = input.mentions.map((m) => m.id);
  const extra = input.to ?? [];
  switch (input.visibility) {
    case 'public':
      return { to: [PUBLIC, ...extra], cc: [author.followers, ...mentioned] };
    case 'unlisted':
      return { to: [author.followers, ...extra], cc: [PUBLIC, ...mentioned] };
    case 'private':
      return { to: [author.followers, ...extra], cc: mentioned };
    case 'direct':
      return { to: [...mentioned, ...extra], cc: [] };
  }
}

/** go-fed's way: one value alone, none left out. */
function single(values: unknown[]): unknown {
  return values.length === 1 ? values[0] : values;
}

function content(input: PostInput): string {
  const links = input.mentions.map(
    (m) =>
      `<span class="h-card" translate="no"><a href="${m.id}" class="u-url mention">@<span>${m.name.split('@')[1]}</span></a></span>`,
  );
  return `<p>${[...links, input.text].join(' ')}</p>`;
}

let sequence = 0;

/** A Create of a post by `author`: `{ note, activity }` in the shape's JSON. */
export function post(shape: Shape, author: FakeAccount, input: PostInput) {
  sequence += 1;
  const n = `${Date.now()}${String(sequence).padStart(4, '0')}`;
  const id = `${author.id}/statuses/${n}`;
  const { to, cc } = addressing(author, input);
  const published = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const html = content(input);
  const tags = input.mentions.map((m) => ({ type: 'Mention', href: m.id, name: m.name }));
  if (shape === 'mastodon') {
    const note: Json = {
      id,
      type: 'Note',
      summary: null,
      inReplyTo: input.inReplyTo ?? null,
      published,
      url: `${author.origin}/@${author.username}/${n}`,
      attributedTo: author.id,
      to,
      cc,
      sensitive: false,
      atomUri: id,
      inReplyToAtomUri: input.inReplyTo ?? null,
      content: html,
      contentMap: { en: html },
      attachment: [],
      tag: tags,
    };
    const context = [AS_CONTEXT, MASTODON_STATUS_TERMS];
    const activity = { '@context': context, id: `${id}/activity`, type: 'Create' };
    return {
      note,
      activity: { ...activity, actor: author.id, published, to, cc, object: note },
    };
  }
  const note: Json = {
    attachment: [],
    attributedTo: author.id,
    content: html,
    contentMap: { en: html },
    id,
    ...(input.inReplyTo ? { inReplyTo: input.inReplyTo } : {}),
    published,
    sensitive: false,
    summary: '',
    ...(tags.length > 0 ? { tag: single(tags) } : {}),
    to: single(to),
    ...(cc.length > 0 ? { cc: single(cc) } : {}),
    type: 'Note',
    url: `${author.origin}/@${author.username}/statuses/${n}`,
  };
  return {
    note,
    activity: {
      '@context': ['https://gotosocial.org/ns', AS_CONTEXT, { sensitive: 'as:sensitive' }],
      actor: author.id,
      ...(cc.length > 0 ? { cc: single(cc) } : {}),
      id: `${id}/activity`,
      object: note,
      published,
      to: single(to),
      type: 'Create',
    },
  };
}

/** A Like of `object` (Mastodon: `{actor}#likes/{n}`; GoToSocial: `{actor}/liked/{ulid}`). */
export function like(shape: Shape, author: FakeAccount, object: string, objectAuthor?: string) {
  sequence += 1;
  if (shape === 'mastodon') {
    return {
      '@context': AS_CONTEXT,
      id: `${author.id}#likes/${sequence}`,
      type: 'Like',
      actor: author.id,
      object,
    };
  }
  return {
    '@context': AS_CONTEXT,
    actor: author.id,
    id: `${author.id}/liked/${randomUUID()}`,
    object,
    ...(objectAuthor ? { to: objectAuthor } : {}),
    type: 'Like',
  };
}

/** Undo of that Like, the Like embedded. */
export function undo(author: FakeAccount, activity: Json) {
  const { '@context': _context, ...object } = activity;
  return {
    '@context': AS_CONTEXT,
    id: `${String(activity.id)}/undo`,
    type: 'Undo',
    actor: author.id,
    object,
  };
}
