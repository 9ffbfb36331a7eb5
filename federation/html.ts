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
