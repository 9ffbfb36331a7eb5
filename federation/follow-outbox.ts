import type { Federation } from '@fedify/fedify';
import type { ActivityRow, ActorRow } from '../src/db/schema/index.ts';
import type { FollowPayload } from '../src/follows/remote.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { FollowDeliveryJob } from './follow-delivery.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first follow that has somewhere to go (`send`, follow-delivery.ts).

export interface FollowOutboxDeps {
  origin: string;
  users: {
    findById(id: number): { username: string; activityPubEnabled: boolean } | undefined;
  };
  actors: { findById(actorId: number): ActorRow | undefined };
  /** Loads Fedify (the federation gateway): the first follow that goes out does. */
  federation: { load(): Promise<{ federation: Federation<void> }> };
  /** Replaces how a job reaches Fedify's queue (tests); follow-delivery.ts by default. */
  send?: (job: FollowDeliveryJob) => Promise<void>;
}

/** Builds the job's activity and puts it in Fedify's queue; resolves once it is queued. */
async function sendThroughFedify(deps: FollowOutboxDeps, job: FollowDeliveryJob): Promise<void> {
  const { federation } = await deps.federation.load();
  const { sendFollowActivityFrom } = await import('./follow-delivery.ts');
  await sendFollowActivityFrom(federation, deps.origin, job);
}

function payloadOf(activity: ActivityRow): (FollowPayload & { reject: boolean }) | undefined {
  if (activity.payload === null) return undefined;
  try {
    const value = JSON.parse(activity.payload) as Partial<FollowPayload> & { as?: unknown };
    if (typeof value.follow !== 'string' || value.follow === '') return undefined;
    // Rows recorded before Reject had a type of its own were Undo rows marked `as: 'Reject'`.
    return { follow: value.follow, reject: value.as === 'Reject' };
  } catch {
    return undefined;
  }
}

/**
 * Follows of remote actors by local users leave the vault: the outbox's Follow (a local user
 * asks to follow a remote actor), Undo rows (an unfollow), Accept rows (a follow request
 * accepted) and Reject rows (a remote follower removed, a request declined) become Follow,
 * Undo(Follow), Accept(Follow) and Reject(Follow) handed to Fedify (`send`), signed as the
 * local user. Rows between local users, and the rows recorded for what remote actors did, are
 * left to the local handlers. A user whose activityPubEnabled is off sends nothing (their
 * follows are kept and resume when it is turned on again).
 *
 * A federating handler of the outbox (src/outbox/handoffs.ts), as entries are: the outbox row
 * stays until the activity is in Fedify's queue, a failed hand-off is retried, and after a
 * crash the activity is sent again with the same id (the follow's), which receivers treat as
 * the same activity. One follow's activities are queued in order (a Follow before its Undo).
 */
export function registerFollowDelivery(outbox: Outbox, deps: FollowOutboxDeps): void {
  function jobOf(activity: ActivityRow): FollowDeliveryJob | undefined {
    if (activity.objectActorId === null) return undefined;
    const me = deps.actors.findById(activity.actorId);
    const them = deps.actors.findById(activity.objectActorId);
    if (!me || me.userId === null || !them || them.kind !== 'remote') return undefined;
    if (!them.uri || !them.inboxUrl) return undefined;
    const user = deps.users.findById(me.userId);
    if (!user?.activityPubEnabled) return undefined;
    const payload = payloadOf(activity);
    if (!payload) return undefined;
    const local = `${deps.origin}/users/${user.username}`;
    const recipient = {
      uri: them.uri,
      inboxUrl: them.inboxUrl,
      sharedInboxUrl: them.sharedInboxUrl,
    };
    const base = { username: user.username, followUri: payload.follow, recipient };
    if (activity.type === 'Follow') {
      return { kind: 'Follow', ...base, follower: local, followed: them.uri };
    }
    if (activity.type === 'Reject' || payload.reject) {
      return { kind: 'Reject', ...base, follower: them.uri, followed: local };
    }
    if (activity.type === 'Accept') {
      return { kind: 'Accept', ...base, follower: them.uri, followed: local };
    }
    return { kind: 'Undo', ...base, follower: local, followed: them.uri };
  }

  outbox.federate<FollowDeliveryJob>({
    name: 'follow',
    types: ['Follow', 'Undo', 'Accept', 'Reject'],
    job: jobOf,
    send: deps.send ?? ((job) => sendThroughFedify(deps, job)),
    orderingKey: (job) => job.followUri,
  });
}
