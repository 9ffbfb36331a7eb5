import { Delete, Image, Note, Tombstone } from '@fedify/vocab';
import type { EntryBasics } from '../contract/entry-basics.ts';
import type { BeverageStatus } from '../contract/enums.ts';
import { CATALOG, RATING_MAX } from '../src/beverages/catalog.ts';
import { escapeHtml, textToHtml } from './html.ts';
import {
  actorUrl,
  entryTerms,
  followersUrl,
  photoAltText,
  VaultCreate,
  VaultNote,
  VaultUpdate,
  type NoteAuthor,
  type VaultFields,
} from './note.ts';
import { ratingStars } from './note-content.ts';
import { profileUrl } from './paths.ts';
import { instantFromDate } from './temporal.ts';

// A tasting as an ActivityPub Note, and the Create / Update / Delete that carry it to the
// author's followers, as an entry's Note does (note.ts; docs/federation.md, "Tastings as
// Notes"). Pure: plain data in, @fedify/vocab objects out.
//
// What a Mastodon user reads is the HTML content ("Alice opened a bottle of Barolo", the rating,
// the notes, the photo). What another vault reads are the entry's vault terms (so that a vault
// that knows nothing of tastings shows it as an entry, as it would any other) with the rating
// and notes of the tasting, plus `tastedOn`, `openedBottle` and `vintage`, which mark it as a
// tasting.

/** A tasting as the federation sees it, with the entry it is a tasting of. */
export interface NoteTasting {
  id: number;
  /** 'YYYY-MM-DD'. */
  tastedOn: string;
  /** 1 to 5, or null. */
  rating: number | null;
  /** '' when none. */
  notes: string;
  opened: boolean;
  vintage: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** The photo at a URL remote servers can fetch (absolute, or a path under origin). */
  photo: { url: string; width: number; height: number } | null;
  entry: Pick<EntryBasics, 'type' | 'name' | 'subtype' | 'makerName'>;
}

export interface TastingNoteInput {
  tasting: NoteTasting;
  /** The generation of its entry's Note id (note-generations.ts), which the tasting's follows. */
  generation: number;
  author: NoteAuthor;
  /** VAULT_ORIGIN. */
  origin: string;
}

/**
 * The Note's id: {origin}/users/{username}/tastings/{id} while its entry's Note is at
 * generation 0, …/tastings/{id}-{n} at generation n. A tasting's Note leaves the fediverse and
 * comes back with its entry, and servers keep a tombstone for a deleted id as for an entry's.
 */
export function tastingNoteUrl(
  origin: string,
  username: string,
  tastingId: number,
  generation = 0,
): URL {
  const id = generation > 0 ? `${tastingId}-${generation}` : String(tastingId);
  return new URL(`/users/${encodeURIComponent(username)}/tastings/${id}`, origin);
}

const STATUS: BeverageStatus = 'TRIED';

/**
 * The vault terms: the entry's (a tasting is of something tried, with the tasting's rating, 0
 * when not rated, and its notes) and the tasting's own.
 */
export function tastingVaultFields(tasting: NoteTasting): VaultFields {
  const { rating, notes } = tasting;
  return {
    ...entryTerms({ ...tasting.entry, rating: rating ?? 0, status: STATUS, notes }),
    tastedOn: tasting.tastedOn,
    openedBottle: tasting.opened,
    ...(tasting.vintage !== null ? { vintage: tasting.vintage } : {}),
  };
}

/**
 * For example (from an opened bottle, rated, with notes):
 *
 *   <p>Alice opened a bottle of <strong>Barolo</strong></p>
 *   <p>Wine · Red<br>Winery: Vietti<br>Vintage: 2016<br>Rating: ★★★★☆ (4/5)<br>Tasted on 2026-05-14</p>
 *   <p>Tar and roses</p>
 *   <p>From <a href="…/users/alice">@alice@vault.example</a>'s vault</p>
 *
 * A tasting not from a bottle says "tasted"; the maker, vintage and rating lines and the notes
 * are left out when empty. Every piece of user text is HTML-escaped.
 */
export function tastingContent(
  tasting: NoteTasting,
  author: { fullName: string; handle: string; profileUrl: string },
): string {
  const { entry } = tasting;
  const kind = CATALOG[entry.type];
  const verb = tasting.opened ? 'opened a bottle of' : 'tasted';
  const details = [`${escapeHtml(kind.label)} · ${escapeHtml(entry.subtype)}`];
  const maker = entry.makerName.trim();
  if (maker !== '') details.push(`${escapeHtml(kind.makerLabel)}: ${escapeHtml(maker)}`);
  if (tasting.vintage !== null) details.push(`Vintage: ${tasting.vintage}`);
  if (tasting.rating !== null) {
    details.push(`Rating: ${ratingStars(tasting.rating)} (${tasting.rating}/${RATING_MAX})`);
  }
  details.push(`Tasted on ${escapeHtml(tasting.tastedOn)}`);
  return [
    `<p>${escapeHtml(author.fullName)} ${verb} <strong>${escapeHtml(entry.name)}</strong></p>`,
    `<p>${details.join('<br>')}</p>`,
    textToHtml(tasting.notes) ?? '',
    `<p>From <a href="${escapeHtml(author.profileUrl)}">@${escapeHtml(author.handle)}</a>'s vault</p>`,
  ].join('');
}

/** The tasting as a Note addressed to the author's followers only. */
export function tastingNote({ tasting, generation, author, origin }: TastingNoteInput): VaultNote {
  const profile = profileUrl(origin, author.username);
  const edited = tasting.updatedAt.getTime() > tasting.createdAt.getTime();
  const note = new VaultNote({
    id: tastingNoteUrl(origin, author.username, tasting.id, generation),
    attribution: actorUrl(origin, author.username),
    to: followersUrl(origin, author.username),
    published: instantFromDate(tasting.createdAt),
    updated: edited ? instantFromDate(tasting.updatedAt) : null,
    url: profile,
    content: tastingContent(tasting, {
      fullName: author.fullName,
      handle: `${author.username}@${new URL(origin).host}`,
      profileUrl: profile.href,
    }),
    attachments: tasting.photo
      ? [
          new Image({
            mediaType: 'image/jpeg',
            url: new URL(tasting.photo.url, `${origin}/`),
            width: tasting.photo.width,
            height: tasting.photo.height,
            name: photoAltText(tasting.entry.name),
          }),
        ]
      : [],
  });
  note.vaultFields = tastingVaultFields(tasting);
  return note;
}

/** Create(Note), id {noteId}#create, published when the tasting was logged. */
export function createTastingActivity(input: TastingNoteInput): VaultCreate {
  const note = tastingNote(input);
  const { origin, author, tasting } = input;
  return new VaultCreate({
    id: new URL(`${note.id!.href}#create`),
    actor: actorUrl(origin, author.username),
    to: followersUrl(origin, author.username),
    published: instantFromDate(tasting.createdAt),
    object: note,
  });
}

/** Update(Note), id {noteId}#update-{updatedAt in ms}: one id per edit. */
export function updateTastingActivity(input: TastingNoteInput): VaultUpdate {
  const note = tastingNote(input);
  const { origin, author, tasting } = input;
  return new VaultUpdate({
    id: new URL(`${note.id!.href}#update-${tasting.updatedAt.getTime()}`),
    actor: actorUrl(origin, author.username),
    to: followersUrl(origin, author.username),
    published: instantFromDate(tasting.updatedAt),
    object: note,
  });
}

/** Delete(Tombstone) of the Note at `generation`, id {noteId}#delete. */
export function deleteTastingActivity(input: {
  origin: string;
  username: string;
  tastingId: number;
  generation: number;
  deletedAt: Date;
}): Delete {
  const { origin, username, tastingId, generation, deletedAt } = input;
  const id = tastingNoteUrl(origin, username, tastingId, generation);
  return new Delete({
    id: new URL(`${id.href}#delete`),
    actor: actorUrl(origin, username),
    to: followersUrl(origin, username),
    published: instantFromDate(deletedAt),
    object: new Tombstone({ id, formerType: Note, deleted: instantFromDate(deletedAt) }),
  });
}
