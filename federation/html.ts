const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for use inside HTML (element content or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/**
 * Plain text as ActivityPub HTML content: escaped, paragraphs on blank lines, <br> on single
 * line breaks. Empty text gives null (no property at all).
 */
export function textToHtml(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return trimmed
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Decodes the character references of HTML text (named ones that matter, and numeric). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** How much of received HTML is read at all: a bound input keeps the patterns below fast. */
const MAX_HTML = 10_000;

/**
 * Received HTML (a reply's `content`, a Mastodon bio or name) as plain text: only its first
 * 10,000 characters are read (what is kept of it is far shorter); scripts and styles go with
 * their content; paragraph and block ends become blank lines, <br> line breaks; every other
 * tag goes and entities are decoded. A link keeps its text, or with `links: 'url'` (a reply,
 * whose links the client makes clickable again) its URL (`href`, when http or https); a
 * mention or hashtag link keeps its text (`@alice`, `#tag`) either way. Nothing of the HTML
 * survives to be rendered: the client shows it as text.
 */
export function htmlToText(html: string, options: { links?: 'text' | 'url' } = {}): string {
  const linked = html
    .slice(0, MAX_HTML)
    .replace(/<[^>]*$/, '') // a tag cut off by the bound
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi, (_whole, attrs: string, inner: string) => {
      const text = inner.replace(/<[^>]*>/g, '');
      if (options.links !== 'url') return text;
      if (/\bclass\s*=\s*["'][^"']*\b(?:mention|hashtag)\b/i.test(attrs)) return text;
      const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(attrs);
      const url = decodeEntities(href?.[1] ?? href?.[2] ?? '');
      return /^https?:\/\//i.test(url) ? escapeHtml(url) : text;
    });
  const text = linked
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote)\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Plain text as ActivityPub HTML, as textToHtml, with its http(s) URLs made links. */
export function textToLinkedHtml(text: string): string | null {
  const html = textToHtml(text);
  return (
    html?.replace(/https?:\/\/[^\s<]+[^\s<.,;:!?)'"\]]/g, (escapedUrl) => {
      return `<a href="${escapedUrl}" rel="nofollow noopener noreferrer" target="_blank">${escapedUrl}</a>`;
    }) ?? null
  );
}
