import type { z } from 'zod';
import type { ActivityRow } from '../db/schema/index.ts';

/**
 * Who may be the actor of an activity of a kind: a local user only, or anyone (a remote actor's
 * too: what a remote server did, recorded so that local recipients learn of it). Only a local
 * user's activity ever leaves the vault (outbox.ts refuses the others before any hand-off).
 */
export type Emitter = 'local' | 'anyone';

/**
 * One kind of outbox activity (an ActivityType), its codec: what its payload holds, who may emit
 * it, the key that orders its hand-offs, and whether it is forgotten once delivered. Writers
 * record through `outbox.record` (typed by `payload`'s input), and every reader decodes through
 * `payloadOf` (activities.ts), which answers undefined for a missing or unreadable payload: each
 * reader then does what it does for an activity that names nothing (no notification, no job).
 */
export interface ActivityKind<Schema extends z.ZodType | undefined = z.ZodType | undefined> {
  readonly emittedBy: Emitter;
  /**
   * The payload's schema: what readers accept, the forms older versions wrote included; its
   * input is what writers give (`.optional()`: they may leave it out). None: no payload.
   */
  readonly payload: Schema;
  /**
   * Activities only delivered, never read again (no feed or notification keeps them): their row
   * goes with their outbox row.
   */
  readonly transient: boolean;
  /**
   * The key of the thing the activity is about (an entry, a follow, a comment): hand-offs with
   * one key reach Fedify's queue one at a time, in the order they were recorded (handoffs.ts).
   * Undefined: no order to keep.
   */
  orderingKey(
    activity: ActivityRow,
    payload: (Schema extends z.ZodType ? z.output<Schema> : never) | undefined,
  ): string | undefined;
}

export function activityKind<Schema extends z.ZodType | undefined = undefined>(definition: {
  emittedBy: Emitter;
  payload?: Schema;
  transient?: boolean;
  orderingKey?: ActivityKind<Schema>['orderingKey'];
}): ActivityKind<Schema> {
  return {
    emittedBy: definition.emittedBy,
    payload: definition.payload as Schema,
    transient: definition.transient ?? false,
    orderingKey: definition.orderingKey ?? (() => undefined),
  };
}

/** An ordering key `{prefix}:{the payload's field}`: the thing the payload names. */
export function keyOf<Field extends string>(prefix: string, field: Field) {
  return (_activity: ActivityRow, payload: Record<Field, number | string> | undefined) =>
    payload && `${prefix}:${payload[field]}`;
}
