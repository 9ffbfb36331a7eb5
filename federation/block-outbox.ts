import type { Federation } from '@fedify/fedify';
import type { ActivityRow } from '../src/db/schema/index.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { BlockDeliveryJob } from './block-delivery.ts';
import type { FollowOutboxDeps } from './follow-outbox.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first block that has somewhere to go (`send`, block-delivery.ts).

export type BlockOutboxDeps = Omit<FollowOutboxDeps, 'send'> & {
  /** Replaces how a job reaches Fedify's queue (tests); block-delivery.ts by default. */
  send?: (job: BlockDeliveryJob) => Promise<void>;
};

function blockIdOf(activity: ActivityRow): number | undefined {
  if (activity.payload === null) return undefined;
  try {
    const { blockId } = JSON.parse(activity.payload) as { blockId?: unknown };
    return typeof blockId === 'number' ? blockId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A local user's block of a remote account leaves the vault: the outbox's Block and UndoBlock
 * rows (src/blocks/service.ts) become a Block and an Undo(Block) sent to the blocked account's
 * inbox, signed as the user, as Mastodon sends them (docs/federation.md). Nothing goes while the
 * user does not federate. A federating handler of the outbox, like follows (follow-outbox.ts):
 * at least once, with the same activity id each time (the block's), in order per block.
 */
export function registerBlockDelivery(outbox: Outbox, deps: BlockOutboxDeps): void {
  function jobOf(activity: ActivityRow): BlockDeliveryJob | undefined {
    if (activity.objectActorId === null) return undefined;
    const me = deps.actors.findById(activity.actorId);
    const them = deps.actors.findById(activity.objectActorId);
    if (!me || me.userId === null || !them || them.kind !== 'remote') return undefined;
    if (!them.uri || !them.inboxUrl) return undefined;
    const user = deps.users.findById(me.userId);
    const blockId = blockIdOf(activity);
    if (!user?.activityPubEnabled || blockId === undefined) return undefined;
    const actor = `${deps.origin}/users/${user.username}`;
    return {
      kind: activity.type === 'UndoBlock' ? 'Undo' : 'Block',
      username: user.username,
      blockUri: `${actor}#blocks/${blockId}`,
      actor,
      object: them.uri,
      recipient: { uri: them.uri, inboxUrl: them.inboxUrl, sharedInboxUrl: them.sharedInboxUrl },
    };
  }

  async function sendThroughFedify(job: BlockDeliveryJob): Promise<void> {
    const { federation }: { federation: Federation<void> } = await deps.federation.load();
    const { sendBlockActivity } = await import('./block-delivery.ts');
    await sendBlockActivity(federation, deps.origin, job);
  }

  outbox.federate<BlockDeliveryJob>({
    name: 'block',
    types: ['Block', 'UndoBlock'],
    job: jobOf,
    send: deps.send ?? sendThroughFedify,
    orderingKey: (job) => job.blockUri,
  });
}
