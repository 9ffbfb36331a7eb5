import type { DocumentLoader } from '@fedify/fedify';
import type { Actor } from '@fedify/vocab';
import type { RemoteActorData } from '../src/actors/repository.ts';
import { htmlToText } from './html.ts';

/** Longest display name and summary kept of a remote actor (characters; HTML read as htmlToText). */
const MAX_NAME = 200;
const MAX_SUMMARY = 2000;

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
