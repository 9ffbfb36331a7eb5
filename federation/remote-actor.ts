import type { DocumentLoader } from '@fedify/fedify';
import type { Actor } from '@fedify/vocab';
import type { RemoteActorData } from '../src/actors/repository.ts';

/** Longest display name and summary kept of a remote actor (characters). */
const MAX_NAME = 200;
const MAX_SUMMARY = 2000;
/** How much of a remote name or summary (HTML) is read at all. */
const MAX_HTML = 8000;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * HTML (a Mastodon bio, say) as plain text: line breaks for <br> and paragraph ends, scripts
 * and styles dropped with their content, every other tag dropped, entities decoded, runs of blank lines squeezed. The result is text; the client shows
 * it as text, never as HTML.
 */
export function htmlToText(html: string): string {
  // Only the start is read: what is kept is at most 2,000 characters, and a bound input keeps
  // the patterns below fast whatever a remote sends.
  return html
    .slice(0, MAX_HTML)
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h[1-6]|blockquote)>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X'
            ? parseInt(name.slice(2), 16)
            : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : '';
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function plain(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/**
 * What the vault keeps of a remote actor document, or null when it cannot be followed (no id,
 * no inbox, or an http(s) id). The handle is `@preferredUsername@host of its id`.
 */
export async function remoteActorData(
  actor: Actor,
  documentLoader?: DocumentLoader,
): Promise<RemoteActorData | null> {
  const id = actor.id;
  const inbox = actor.inboxId;
  if (!id || !inbox || !/^https?:$/.test(id.protocol) || !/^https?:$/.test(inbox.protocol)) {
    return null;
  }
  const username = plain(actor.preferredUsername).trim() || id.pathname.split('/').pop() || id.host;
  let avatarUrl: string | null = null;
  try {
    const icon = await actor.getIcon({
      suppressError: true,
      ...(documentLoader ? { documentLoader } : {}),
    });
    const url = icon?.url;
    const href = url instanceof URL ? url.href : (url?.href?.href ?? null);
    if (href && /^https?:/.test(href)) avatarUrl = href;
  } catch {
    avatarUrl = null;
  }
  const sharedInbox = actor.endpoints?.sharedInbox ?? null;
  return {
    uri: id.href,
    inboxUrl: inbox.href,
    sharedInboxUrl: sharedInbox && /^https?:$/.test(sharedInbox.protocol) ? sharedInbox.href : null,
    handle: `@${username}@${id.host}`,
    displayName: clip(htmlToText(plain(actor.name)).replace(/\s+/g, ' '), MAX_NAME),
    summary: clip(htmlToText(plain(actor.summary)), MAX_SUMMARY),
    avatarUrl,
  };
}
