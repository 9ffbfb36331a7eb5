import type { ActivityRow } from '../src/db/schema/index.ts';
import { payloadOf } from '../src/outbox/activities.ts';
import type { Sender } from '../src/outbox/handoffs.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { FollowDeliveryJob } from './follow-delivery.ts';
import { sendWithFedify, toRemoteActor, type HandoffDeps } from './handoff-parts.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first follow that has somewhere to go (`send`, follow-delivery.ts).

export type FollowHandoffDeps = HandoffDeps & {
  /** Replaces how a job reaches Fedify's queue (tests); follow-delivery.ts by default. */
  send?: (job: FollowDeliveryJob) => Promise<void>;
};

/**
 * Follows of remote actors by local users leave the vault: the outbox's Follow (a local user
 * asks to follow a remote actor), Undo rows (an unfollow), Accept rows (a follow request
 * accepted) and Reject rows (a remote follower removed, a request declined) become Follow,
 * Undo(Follow), Accept(Follow) and Reject(Follow) handed to Fedify (`send`), signed as the
 * local user. Rows between local users are left to the local handlers. A user whose
 * activityPubEnabled is off sends nothing (their follows are kept and resume when it is turned
 * on again).
 *
 * A federating handler of the outbox (src/outbox/handoffs.ts), as entries are: the outbox row
 * stays until the activity is in Fedify's queue, a failed hand-off is retried, and after a
 * crash the activity is sent again with the same id (the follow's), which receivers treat as
 * the same activity. One follow's activities are queued in order (a Follow before its Undo).
 */
export function registerFollowHandoff(outbox: Outbox, deps: FollowHandoffDeps): void {
  async function jobOf(
    activity: ActivityRow,
    sender: Sender,
  ): Promise<FollowDeliveryJob | undefined> {
    const payload =
      payloadOf(activity, 'Follow') ??
      payloadOf(activity, 'Undo') ??
      payloadOf(activity, 'Accept') ??
      payloadOf(activity, 'Reject');
    if (!payload?.follow) return undefined;
    const parties = await toRemoteActor(deps, activity, sender);
    if (!parties) return undefined;
    const { username, actor: local, recipient } = parties;
    const them = recipient.uri;
    const base = { username, followUri: payload.follow, recipient };
    if (activity.type === 'Follow') {
      return { kind: 'Follow', ...base, follower: local, followed: them };
    }
    // Rows recorded before Reject had a type of its own are Undo rows marked `as: 'Reject'`.
    if (activity.type === 'Reject' || ('as' in payload && payload.as === 'Reject')) {
      return { kind: 'Reject', ...base, follower: them, followed: local };
    }
    if (activity.type === 'Accept') {
      return { kind: 'Accept', ...base, follower: them, followed: local };
    }
    return { kind: 'Undo', ...base, follower: local, followed: them };
  }

  outbox.federate<FollowDeliveryJob>({
    name: 'follow',
    types: ['Follow', 'Undo', 'Accept', 'Reject'],
    job: jobOf,
    send:
      deps.send ??
      sendWithFedify(
        deps,
        async () => (await import('./follow-delivery.ts')).sendFollowActivityFrom,
      ),
  });
}
