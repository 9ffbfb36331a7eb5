import { CATALOG, RATING_MAX } from '../src/beverages/catalog.ts';
import type { EntryBasics } from '../contract/entry-basics.ts';
import { escapeHtml, textToHtml } from './html.ts';

// The HTML `content` of an entry's Note: what a Mastodon user reads, with no extension at all.
// Only <p>, <br>, <strong> and <a href> are used: Mastodon 4 keeps them all (older servers drop
// <strong> and keep its text).

/**
 * What the content is written from: the entry's basic fields but the cellar flag (the rating is
 * not shown while the entry is to try) and its author.
 */
export interface NoteContentInput extends Omit<EntryBasics, 'inCellar'> {
  /** The author's display name. */
  authorName: string;
  /** The author's handle without the leading @: alice@vault.example. */
  handle: string;
  /** The author's profile page. */
  profileUrl: string;
}

const FULL_STAR = '★';
const EMPTY_STAR = '☆';

/** The rating as five stars, full ones first: 3 → ★★★☆☆. Out-of-range values are clamped. */
export function ratingStars(rating: number): string {
  const full = Math.min(RATING_MAX, Math.max(0, Math.trunc(Number.isFinite(rating) ? rating : 0)));
  return FULL_STAR.repeat(full) + EMPTY_STAR.repeat(RATING_MAX - full);
}

/**
 * For example (tried, with a maker and notes):
 *
 *   <p>Alice tried <strong>Lagavulin 16</strong></p>
 *   <p>Whiskey · Scotch<br>Distiller: Lagavulin<br>Rating: ★★★★☆ (4/5)</p>
 *   <p>Peat &amp; smoke</p>
 *   <p>From <a href="…/users/alice">@alice@vault.example</a>'s vault</p>
 *
 * A to-try entry says "wants to try" and has no rating line; the maker line and the notes are
 * left out when empty. Every piece of user text is HTML-escaped.
 */
export function noteContent(input: NoteContentInput): string {
  const kind = CATALOG[input.type];
  const verb = input.status === 'TRIED' ? 'tried' : 'wants to try';
  const profile = escapeHtml(input.profileUrl);

  const details = [`${escapeHtml(kind.label)} · ${escapeHtml(input.subtype)}`];
  const maker = input.makerName.trim();
  if (maker !== '') details.push(`${escapeHtml(kind.makerLabel)}: ${escapeHtml(maker)}`);
  if (input.status === 'TRIED') {
    details.push(`Rating: ${ratingStars(input.rating)} (${input.rating}/${RATING_MAX})`);
  }

  return [
    `<p>${escapeHtml(input.authorName)} ${verb} <strong>${escapeHtml(input.name)}</strong></p>`,
    `<p>${details.join('<br>')}</p>`,
    textToHtml(input.notes) ?? '',
    `<p>From <a href="${profile}">@${escapeHtml(input.handle)}</a>'s vault</p>`,
  ].join('');
}
