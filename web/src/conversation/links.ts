/**
 * A comment's text in parts: plain text, the http(s) links in it that the thread makes
 * clickable, and its mentions, which link to the person's page in this vault. Nothing else in a
 * comment is markup: the parts are rendered as React text nodes.
 * No DOM or React here (unit-tested in test/web/comment-links.test.ts).
 */
import type { CommentMention } from '../../../contract/conversation.ts';
import { handlePath } from '../people/handle-path.ts';

export type CommentPart =
  | { kind: 'text'; text: string }
  | { kind: 'link'; text: string; href: string }
  | { kind: 'mention'; text: string; href: string };

/** An http(s) address that does not start inside a word, up to a space, quote or angle bracket. */
const ADDRESS = /(?<![\p{L}\p{N}_])https?:\/\/[^\s<>"`]+/giu;

/** Punctuation that ends a sentence rather than an address: 'See https://a.example.' */
const TRAILING = /[.,;:!?'*]$/;

const count = (text: string, char: string) => text.split(char).length - 1;

/** The address without what follows it in the sentence (a closing bracket it did not open). */
function trimAddress(raw: string): string {
  let address = raw;
  for (;;) {
    if (TRAILING.test(address)) {
      address = address.slice(0, -1);
    } else if (address.endsWith(')') && count(address, ')') > count(address, '(')) {
      address = address.slice(0, -1);
    } else if (address.endsWith(']') && count(address, ']') > count(address, '[')) {
      address = address.slice(0, -1);
    } else {
      return address;
    }
  }
}

/** The address as a link target, or null when it is not a real http(s) URL with a host. */
function hrefOf(address: string): string | null {
  try {
    const url = new URL(address);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Where a mention leads: a user of this vault to their profile, a fediverse account to its page
 * here (web/src/people/handle-path.ts); null when it names neither.
 */
export function mentionHref(mention: CommentMention): string | null {
  if (mention.username) return `/users/${encodeURIComponent(mention.username)}`;
  return mention.handle ? handlePath(mention.handle) : null;
}

/** A character of a name or a host: a mention ends before one only where the name ends. */
const NAME_CHAR = /[\p{L}\p{N}_]/u;
const HOST_CHAR = /[\p{L}\p{N}-]/u;

/**
 * Whether `text` at `at` holds the whole of `mention` (in any case, as the server reads names),
 * where the server found it: not inside a word, an address or a path ('a@b', 'x/@y'), and not
 * the start of a longer name ('@bobby') or host ('@ann@example.social.uk'). A name ends at
 * anything else: '@bob.' and '@bob-x' mention bob.
 */
function mentionAt(text: string, at: number, mention: string): boolean {
  const end = at + mention.length;
  if (text.slice(at, end).toLowerCase() !== mention.toLowerCase()) return false;
  const before = text[at - 1];
  if (before !== undefined && (NAME_CHAR.test(before) || '@/.'.includes(before))) return false;
  const after = text[end];
  if (after === undefined) return true;
  if (NAME_CHAR.test(after) || after === '@') return false;
  if (mention.lastIndexOf('@') === 0) return true;
  const next = text[end + 1] ?? '';
  if (after === '-' || (after === '.' && HOST_CHAR.test(next))) return false;
  return !(after === ':' && /\d/.test(next));
}

/** A plain text's mentions as parts (the first mention that fits at each place). */
function withMentions(text: string, mentions: readonly CommentMention[]): CommentPart[] {
  const named = mentions
    .map((mention) => ({ text: mention.text, href: mentionHref(mention) }))
    .filter(
      (mention): mention is { text: string; href: string } => !!mention.href && !!mention.text,
    )
    // The longer first: '@ann@example.social' before '@ann'.
    .sort((a, b) => b.text.length - a.text.length);
  if (named.length === 0) return text ? [{ kind: 'text', text }] : [];
  const parts: CommentPart[] = [];
  let from = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at < from) continue;
    const found = named.find((mention) => mentionAt(text, at, mention.text));
    if (!found) continue;
    if (at > from) parts.push({ kind: 'text', text: text.slice(from, at) });
    from = at + found.text.length;
    parts.push({ kind: 'mention', text: text.slice(at, from), href: found.href });
  }
  if (from < text.length) parts.push({ kind: 'text', text: text.slice(from) });
  return parts;
}

/**
 * `text` as parts, in order; joined, their texts give `text` back unchanged. A mention inside an
 * address stays part of the address.
 */
export function commentParts(
  text: string,
  mentions: readonly CommentMention[] = [],
): CommentPart[] {
  const parts: CommentPart[] = [];
  let plain = '';
  let from = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const address = trimAddress(match[0]);
    const href = hrefOf(address);
    if (!href) continue;
    plain += text.slice(from, match.index);
    parts.push(...withMentions(plain, mentions));
    plain = '';
    parts.push({ kind: 'link', text: address, href });
    from = match.index + address.length;
  }
  plain += text.slice(from);
  parts.push(...withMentions(plain, mentions));
  return parts;
}
