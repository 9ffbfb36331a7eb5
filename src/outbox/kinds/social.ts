import { z } from 'zod';
import { activityKind, keyOf } from '../kind.ts';

/** The id of the Follow activity a follow between a local user and a remote actor went by. */
const follow = z.string();
const ofFollow = (_activity: unknown, payload: { follow?: string | undefined } | undefined) =>
  payload?.follow ? `follow:${payload.follow}` : undefined;
/** A local user's block of a remote account, made or lifted: which block. */
const block = {
  emittedBy: 'local',
  payload: z.object({ blockId: z.int().positive() }),
  transient: true,
  orderingKey: keyOf('block', 'blockId'),
} as const;

/**
 * Follows, shares, blocks and profiles (src/follows/, src/shares/, src/blocks/, src/users/):
 * read by the notifications (src/notifications/delivery.ts) and sent to remote actors
 * (federation/follow-handoff.ts, block-handoff.ts, profile-handoff.ts). One follow's, and one
 * block's, reach Fedify in the order recorded; one user's profile Updates likewise.
 */
export const socialKinds = {
  /**
   * A follow asked for or made, by a local user or a remote actor. `follow`: the id of the Follow
   * when one side is remote; `request`: the follow waits for the followed user to accept it.
   */
  Follow: activityKind({
    emittedBy: 'anyone',
    payload: z.object({ follow: follow.optional(), request: z.boolean().optional() }).optional(),
    orderingKey: ofFollow,
  }),
  /**
   * A follow ended by its follower, local or remote (`follow` when one side is remote). Rows
   * recorded before Reject had a type of its own are Undo rows with `as: 'Reject'`.
   */
  Undo: activityKind({
    emittedBy: 'anyone',
    payload: z.object({ follow, as: z.string().optional() }).optional(),
    transient: true,
    orderingKey: ofFollow,
  }),
  /** A follow request of a remote actor accepted by the local user it asked. */
  Accept: activityKind({
    emittedBy: 'local',
    payload: z.object({ follow }),
    transient: true,
    orderingKey: ofFollow,
  }),
  /** A remote actor's follow (or request) of a local user refused or ended by that user. */
  Reject: activityKind({
    emittedBy: 'local',
    payload: z.object({ follow }),
    transient: true,
    orderingKey: ofFollow,
  }),
  /** An entry shared with a local user, with the sharer's message if any. */
  Offer: activityKind({
    emittedBy: 'local',
    payload: z.object({ message: z.string().optional() }),
  }),
  /** What remote servers show of a local user changed (an Update(Person)). */
  UpdateProfile: activityKind({
    emittedBy: 'local',
    transient: true,
    orderingKey: (activity) => `actor:${activity.actorId}`,
  }),
  Block: activityKind(block),
  UndoBlock: activityKind(block),
};
