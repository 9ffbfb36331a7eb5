import { z } from 'zod';
import type { ActivityRow } from '../../db/schema/index.ts';
import { activityKind, keyOf } from '../kind.ts';

const id = z.int().positive();
const ofEntry = (activity: ActivityRow) =>
  activity.beverageId === null ? undefined : `entry:${activity.beverageId}`;
const ofTasting = keyOf('tasting', 'tastingId');

/**
 * An entry's and its tastings' activities, recorded by their owner's writes
 * (src/beverages/entry-activities.ts, src/tastings/activities.ts): read by the followers' feeds
 * (src/feed/) and sent to remote followers as Notes (federation/entry-handoff.ts,
 * tasting-handoff.ts). One entry's, and one tasting's, reach Fedify in the order recorded.
 */
export const entryKinds = {
  /** A new entry. */
  Create: activityKind({ emittedBy: 'local', orderingKey: ofEntry }),
  /**
   * A changed entry. `{ federation: 'Create' }`: federation sends it as a Create, since the entry
   * has just become federated (remote servers never had it, or hold a tombstone of it).
   */
  Update: activityKind({
    emittedBy: 'local',
    payload: z.object({ federation: z.literal('Create') }).optional(),
    transient: true,
    orderingKey: ofEntry,
  }),
  /**
   * A deleted entry, or one leaving the fediverse (it stays): which, whose, and whether its Note
   * was in the fediverse until now (only then does a Delete leave the vault: of an entry that
   * never federated nothing was sent, and one that left had its Delete sent then). Rows written
   * before `federated` existed were sent whatever the entry was, and still are.
   */
  Delete: activityKind({
    emittedBy: 'local',
    payload: z.object({ id, userId: id, federated: z.boolean().default(true) }),
    transient: true,
    orderingKey: keyOf('entry', 'id'),
  }),
  /** A new tasting of an entry. */
  CreateTasting: activityKind({
    emittedBy: 'local',
    payload: z.object({ tastingId: id }),
    orderingKey: ofTasting,
  }),
  /**
   * A changed tasting; or, with `federation: 'Create'`, one whose entry came back into the
   * fediverse, sent again as a Create under the entry's new Note generation (`reentry`: the id of
   * the entry's Update that brought it back; federation/note-generations.ts counts it).
   */
  UpdateTasting: activityKind({
    emittedBy: 'local',
    payload: z.object({
      tastingId: id,
      federation: z.literal('Create').optional(),
      reentry: id.optional(),
    }),
    transient: true,
    orderingKey: ofTasting,
  }),
  /**
   * A deleted tasting, or one whose entry left the fediverse (the tasting stays): what receivers
   * need once the rows are gone. `federated`: whether its entry was in the fediverse until then.
   * Rows of earlier versions may lack the entry and owner; they are not sent.
   */
  DeleteTasting: activityKind({
    emittedBy: 'local',
    payload: z.object({
      tastingId: id,
      beverageId: id.optional(),
      userId: id.optional(),
      federated: z.boolean().optional(),
    }),
    transient: true,
    orderingKey: ofTasting,
  }),
};
