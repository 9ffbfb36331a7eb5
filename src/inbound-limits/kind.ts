import type { InboundKind } from './limiter.ts';

/**
 * What an incoming activity (its JSON, as sent) would store, for the limits: a Create of a
 * Note is an entry, or a reply when it answers another object (`inReplyTo`); a Like is a
 * cheer. A Create whose object is given by its id alone counts as an entry. Anything else
 * (Follow, Update, Delete, Undo…) stores nothing new and is not counted.
 */
export function inboundKind(activity: unknown): InboundKind | undefined {
  if (!isRecord(activity)) return undefined;
  const type = activity.type;
  if (type === 'Like') return 'cheer';
  if (type !== 'Create') return undefined;
  const object = activity.object;
  if (typeof object === 'string') return 'entry';
  if (!isRecord(object) || object.type !== 'Note') return undefined;
  return object.inReplyTo === undefined || object.inReplyTo === null ? 'entry' : 'reply';
}

/** The activity's single actor id (a string, or an object's `id`), if it names one. */
export function actorIdOf(activity: unknown): string | undefined {
  if (!isRecord(activity)) return undefined;
  const actor = Array.isArray(activity.actor) ? activity.actor[0] : activity.actor;
  if (typeof actor === 'string') return actor;
  return isRecord(actor) && typeof actor.id === 'string' ? actor.id : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
