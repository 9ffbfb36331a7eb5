import type { Activity } from '@fedify/vocab';
import { getLogger } from '@logtape/logtape';
import { htmlToText } from '../html.ts';
import type { NotedComment, ReplyTarget } from '../../src/conversation/remote-threads.ts';
import type { FederationDeps } from '../deps.ts';
import { localNoteOf } from '../paths.ts';

export const conversationLogger = getLogger(['vault', 'federation', 'inbox', 'conversation']);

/** A reply Note as the vault reads it from an activity's embedded object. */
export interface ReplyNote {
  id: string;
  inReplyTo: string | null;
  attributedTo: string | null;
  /** The content reduced to plain text (links kept as their URLs). */
  text: string;
  published: Date | undefined;
  updated: Date | undefined;
  /** Its `url` (the first http(s) one), else null. */
  url: string | null;
  /** The ids in its `to` and `cc` (the activity's when the Note has neither). */
  to: string[];
  cc: string[];
  /** The `href` of each of its `Mention` tags. */
  mentions: string[];
}

function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Every id a property names: a string, an object with an `id`, or an array of those. */
function idsOf(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.flatMap((item) => {
    const id = typeof item === 'string' ? item : isRecord(item) ? item.id : undefined;
    return typeof id === 'string' ? [id] : [];
  });
}

/** The `href` of every `Mention` in a `tag` property. */
function mentionsOf(tag: unknown): string[] {
  const tags = Array.isArray(tag) ? tag : tag === undefined ? [] : [tag];
  return tags.flatMap((item) =>
    isRecord(item) && item.type === 'Mention' && typeof item.href === 'string' ? [item.href] : [],
  );
}

/** The first http(s) URL a `url` property names (a string, a Link, or an array of those). */
function urlOf(value: unknown): string | null {
  const values = Array.isArray(value) ? value : [value];
  for (const item of values) {
    const href = typeof item === 'string' ? item : isRecord(item) ? item.href : undefined;
    if (typeof href === 'string' && /^https?:\/\//i.test(href)) return href;
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.length === 1 ? idOf(value[0]) : null;
  if (typeof value === 'object' && value !== null) {
    const id = (value as Record<string, unknown>).id;
    return typeof id === 'string' ? id : null;
  }
  return null;
}

/**
 * The Note embedded in a Create or Update (its compact JSON-LD, as received), or undefined for
 * an object that is not an embedded Note. `content` (or the first of `contentMap`) is reduced to
 * text: no HTML is kept.
 */
export async function embeddedNote(activity: Activity): Promise<ReplyNote | undefined> {
  const json = (await activity.toJsonLd()) as Record<string, unknown>;
  const object = json.object;
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
  const note = object as Record<string, unknown>;
  if (note.type !== 'Note' || typeof note.id !== 'string') return undefined;
  const map = note.contentMap;
  const html =
    typeof note.content === 'string'
      ? note.content
      : typeof map === 'object' && map !== null
        ? Object.values(map as Record<string, unknown>).find((v) => typeof v === 'string')
        : undefined;
  const addressed = note.to !== undefined || note.cc !== undefined ? note : json;
  return {
    id: note.id,
    inReplyTo: idOf(note.inReplyTo),
    attributedTo: idOf(note.attributedTo),
    text: typeof html === 'string' ? htmlToText(html, { links: 'url' }) : '',
    published: dateOf(note.published),
    updated: dateOf(note.updated),
    url: urlOf(note.url),
    to: idsOf(addressed.to),
    cc: idsOf(addressed.cc),
    mentions: mentionsOf(note.tag),
  };
}

const COMMENT_NOTE = /^\/users\/([^/]+)\/comments\/([1-9][0-9]{0,14})$/;

/**
 * The comment a Note id names: a local user's comment by its Note id
 * (/users/{username}/comments/{id}, its author a user with activityPubEnabled), or a remote reply
 * stored here by its own id; undefined for any other URL.
 */
export async function commentNoteOf(
  deps: FederationDeps,
  url: string | URL | null | undefined,
): Promise<NotedComment | undefined> {
  if (!url) return undefined;
  const href = typeof url === 'string' ? url : url.href;
  if (!URL.canParse(href)) return undefined;
  if (new URL(href).origin !== new URL(deps.config.origin).origin) {
    return (await deps.remoteConversation?.isStoredReply(href)) ? { commentUri: href } : undefined;
  }
  const local = localPath(deps.config.origin, href, COMMENT_NOTE);
  const author = local && (await deps.users.findFederatedByUsername(local.username));
  return author && { commentId: Number(local.match[2]), authorUserId: author.id };
}

/**
 * A URL of this vault's origin, without query or fragment, whose path matches `pattern` (its
 * first group a username): the match and the decoded username; undefined for any other URL.
 */
export function localPath(
  origin: string,
  url: string,
  pattern: RegExp,
): { match: RegExpExecArray; username: string } | undefined {
  if (!URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  if (parsed.origin !== new URL(origin).origin || parsed.search || parsed.hash) return undefined;
  const match = pattern.exec(parsed.pathname);
  if (!match) return undefined;
  try {
    return { match, username: decodeURIComponent(match[1]!) };
  } catch {
    return undefined;
  }
}

/**
 * The remote conversation, the activity's one actor and the Note it embeds, when there are
 * all three; else undefined.
 */
export async function conversationNote(activity: Activity, deps: FederationDeps) {
  const conversation = deps.remoteConversation;
  const actor = singleActor(activity);
  if (!conversation || !actor) return undefined;
  const note = await embeddedNote(activity);
  return note && { conversation, actor, note };
}

/**
 * What a Note id names here: a local entry's Note, or the Note of a comment under a local entry;
 * undefined for anything else (a local user's comment on a remote vault's entry among them, so
 * that an answer to it that mentions her still tells her: create-mention.ts).
 */
export async function conversationTargetOf(
  deps: FederationDeps,
  url: string | URL | null | undefined,
): Promise<ReplyTarget | undefined> {
  const entry = localEntryOf(deps.config.origin, url);
  if (entry) return { entry };
  const comment = await commentNoteOf(deps, url);
  return comment && (await deps.remoteConversation?.isLocalThreadComment(comment))
    ? { comment }
    : undefined;
}

/** The local entry a Note id names (any generation), or undefined for any other URL. */
export function localEntryOf(origin: string, url: string | URL | null | undefined) {
  return url ? localNoteOf(origin, url) : undefined;
}

/** The activity's one actor, or null when it has none or several. */
export function singleActor(activity: Activity): URL | null {
  return activity.actorIds.length === 1 ? activity.actorId : null;
}

/** Logs what a conversation activity came to (debug for what is refused, as for the ordinary). */
export function logOutcome(activity: Activity, what: string, outcome: string): void {
  const level = outcome === 'refused' ? 'debug' : 'info';
  conversationLogger[level]('{type} {id} from {actor}: {what} {outcome}', {
    type: activity.constructor.name,
    id: activity.id?.href ?? null,
    actor: activity.actorId?.href ?? null,
    what,
    outcome,
  });
}
