import type { Federation } from '@fedify/fedify';
import type { ActivityRow, ActorRow } from '../src/db/schema/index.ts';
import type { Sender } from '../src/outbox/handoffs.ts';
import type { FollowRecipient } from './follow-delivery.ts';

// No Fedify here: the handlers that use this are loaded at start (src/context.ts).

/** What the handlers of a local user's activities for one remote actor read. */
export interface HandoffDeps {
  origin: string;
  users: {
    findById(id: number): Promise<{ username: string; activityPubEnabled: boolean } | undefined>;
  };
  actors: { findById(actorId: number): Promise<ActorRow | undefined> };
  /** Loads Fedify (the federation gateway): the first activity that goes out does. */
  federation: { load(): Promise<{ federation: Federation<void> }> };
}

/**
 * The parties of a local user's activity for one remote actor (its `objectActorId`: whom a
 * follow, an answer to one or a block concerns): the user, by name and actor URI, and the
 * actor as a recipient. Undefined when the user does not federate, or the object is not a
 * remote actor that can be reached.
 */
export async function toRemoteActor(
  deps: HandoffDeps,
  activity: ActivityRow,
  sender: Sender,
): Promise<{ username: string; actor: string; recipient: FollowRecipient } | undefined> {
  if (activity.objectActorId === null) return undefined;
  const them = await deps.actors.findById(activity.objectActorId);
  if (!them || them.kind !== 'remote' || !them.uri || !them.inboxUrl) return undefined;
  const user = await deps.users.findById(sender.userId);
  if (!user?.activityPubEnabled) return undefined;
  return {
    username: user.username,
    actor: `${deps.origin}/users/${user.username}`,
    recipient: { uri: them.uri, inboxUrl: them.inboxUrl, sharedInboxUrl: them.sharedInboxUrl },
  };
}

/**
 * A handler's `send`: loads Fedify, then the module that builds and queues the job's activity
 * (`deliver`, given as a dynamic import of its -delivery.ts module, never a static one).
 */
export function sendWithFedify<Job>(
  deps: Pick<HandoffDeps, 'origin' | 'federation'>,
  deliver: () => Promise<(federation: Federation<void>, origin: string, job: Job) => Promise<void>>,
): (job: Job) => Promise<void> {
  return async (job) => {
    const { federation } = await deps.federation.load();
    await (
      await deliver()
    )(federation, deps.origin, job);
  };
}
