import type { Activity } from '@fedify/vocab';
import { getLogger } from '@logtape/logtape';
import { htmlToText } from '../html.ts';
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
}

function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
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
  return {
    id: note.id,
    inReplyTo: idOf(note.inReplyTo),
    attributedTo: idOf(note.attributedTo),
    text: typeof html === 'string' ? htmlToText(html, { links: 'url' }) : '',
    published: dateOf(note.published),
    updated: dateOf(note.updated),
  };
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
