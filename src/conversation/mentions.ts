/**
 * A name written in a comment: `@name` (a user of this vault) or `@name@host` (a fediverse
 * account), as `text` appears in the comment.
 */
export interface WrittenMention {
  text: string;
  name: string;
  /** The host, lower case; null for `@name`. */
  host: string | null;
}

// Not inside a word, an address or a URL ('a@b', 'x/@y'); a host is labels joined by dots
// (a sentence's last dot is not part of it), with an optional port.
const MENTION =
  /(?<![\w@/.])@([A-Za-z0-9_]{1,30})(?:@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d+)?))?/g;

/** The names a comment's text mentions, each once, in the order written. */
export function writtenMentions(content: string): WrittenMention[] {
  const found = new Map<string, WrittenMention>();
  for (const match of content.matchAll(MENTION)) {
    const text = match[0];
    const key = text.toLowerCase();
    if (found.has(key)) continue;
    found.set(key, { text, name: match[1]!, host: match[2]?.toLowerCase() ?? null });
  }
  return [...found.values()];
}

/**
 * How a mentioned person appears in a comment's text: the first of the ways of writing them
 * (`@username` or `@username@host` for a local user, `@name@host` or `@name` for an account)
 * that the text holds, as the text writes it; else the first way.
 */
export function mentionText(content: string, ways: readonly string[]): string {
  const written = new Map(writtenMentions(content).map((m) => [m.text.toLowerCase(), m.text]));
  for (const way of ways) {
    const text = written.get(way.toLowerCase());
    if (text !== undefined) return text;
  }
  return ways[0]!;
}
