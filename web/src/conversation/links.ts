/**
 * A comment's text in parts: plain text, and the http(s) links in it that the thread makes
 * clickable. Nothing else in a comment is markup: the parts are rendered as React text nodes.
 * No DOM or React here (unit-tested in test/web/comment-links.test.ts).
 */

export type CommentPart =
  { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

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

/** `text` as parts, in order; joined, their texts give `text` back unchanged. */
export function commentParts(text: string): CommentPart[] {
  const parts: CommentPart[] = [];
  let plain = '';
  let from = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const address = trimAddress(match[0]);
    const href = hrefOf(address);
    if (!href) continue;
    plain += text.slice(from, match.index);
    if (plain) parts.push({ kind: 'text', text: plain });
    plain = '';
    parts.push({ kind: 'link', text: address, href });
    from = match.index + address.length;
  }
  plain += text.slice(from);
  if (plain) parts.push({ kind: 'text', text: plain });
  return parts;
}
