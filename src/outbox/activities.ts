import type { z } from 'zod';
import type { ActivityRow, ActivityType } from '../db/schema/index.ts';
import type { ActivityKind } from './kind.ts';
import { conversationKinds } from './kinds/conversation.ts';
import { entryKinds } from './kinds/entries.ts';
import { socialKinds } from './kinds/social.ts';

export type { Emitter } from './kind.ts';

/**
 * Every kind of outbox activity, each with its codec (kind.ts): the one place that says what an
 * activity's payload holds, who may emit it, what orders its hand-offs and whether it is kept.
 * A new kind is an ActivityType (src/db/schema/activities.ts) and its entry here, in the file of its
 * area under kinds/.
 */
export const ACTIVITY_KINDS = {
  ...entryKinds,
  ...socialKinds,
  ...conversationKinds,
} satisfies Record<ActivityType, ActivityKind>;

type Kinds = typeof ACTIVITY_KINDS;
type SchemaOf<T extends ActivityType> = Kinds[T]['payload'];

/** The payload of an activity of type T as readers get it (payloadOf). */
export type PayloadOf<T extends ActivityType> =
  SchemaOf<T> extends z.ZodType ? Exclude<z.output<SchemaOf<T>>, undefined> : never;

/** What a writer gives as the payload of type T (undefined: none, or left out). */
export type PayloadInput<T extends ActivityType> =
  SchemaOf<T> extends z.ZodType ? z.input<SchemaOf<T>> : undefined;

/** What a writer gives as the payload of type T: required, optional, or none. */
type PayloadField<T extends ActivityType> =
  SchemaOf<T> extends z.ZodType
    ? undefined extends z.input<SchemaOf<T>>
      ? { payload?: z.input<SchemaOf<T>> }
      : { payload: z.input<SchemaOf<T>> }
    : { payload?: undefined };

/** An activity to record (outbox.ts `record`), its payload typed by its kind. */
export type NewActivity<T extends ActivityType = ActivityType> = T extends ActivityType
  ? {
      actorId: number;
      type: T;
      beverageId?: number | null;
      objectActorId?: number | null;
      shareId?: number | null;
      /** The remote entry it is about (a cheer or comment on a remote vault's entry). */
      remoteEntryId?: number | null;
      createdAt: number;
    } & PayloadField<T>
  : never;

/** The payload as stored (JSON), or null: the writers' side of the codec. */
export function encodePayload(activity: NewActivity): string | null {
  return activity.payload === undefined ? null : JSON.stringify(activity.payload);
}

/**
 * The payload of `activity`, an activity of type `type`, as its kind's schema reads it; undefined
 * when the activity is of another type or its payload is missing or unreadable. The readers'
 * side of the codec: no other code parses a payload.
 */
export function payloadOf<T extends ActivityType>(
  activity: ActivityRow,
  type: T,
): PayloadOf<T> | undefined {
  if (activity.type !== type || activity.payload === null) return undefined;
  const schema = ACTIVITY_KINDS[type].payload as z.ZodType | undefined;
  if (schema === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(activity.payload);
  } catch {
    return undefined;
  }
  const read = schema.safeParse(raw);
  return read.success ? (read.data as PayloadOf<T> | undefined) : undefined;
}

/** The ordering key of an activity's hand-offs (kind.ts `orderingKey`), if its kind has one. */
export function orderingKeyOf(activity: ActivityRow): string | undefined {
  const kind = ACTIVITY_KINDS[activity.type] as ActivityKind;
  return kind.orderingKey(activity, payloadOf(activity, activity.type) as never);
}

/** Whether an activity of this type is forgotten once delivered (kind.ts `transient`). */
export const isTransient = (type: ActivityType): boolean => ACTIVITY_KINDS[type].transient;

/** Whether a non-local (remote) actor may be the actor of an activity of this type. */
export const remoteMayEmit = (type: ActivityType): boolean =>
  ACTIVITY_KINDS[type].emittedBy === 'anyone';
