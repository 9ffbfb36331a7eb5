import type { ActivityRow } from '../src/db/schema/index.ts';
import { payloadOf } from '../src/outbox/activities.ts';
import type { Sender } from '../src/outbox/handoffs.ts';
import type { Outbox } from '../src/outbox/outbox.ts';
import type { BlockDeliveryJob } from './block-delivery.ts';
import { sendWithFedify, toRemoteActor, type HandoffDeps } from './handoff-parts.ts';

// No Fedify here: this module is loaded at start (src/context.ts); Fedify is loaded by the
// first block that has somewhere to go (`send`, block-delivery.ts).

export type BlockHandoffDeps = HandoffDeps & {
  /** Replaces how a job reaches Fedify's queue (tests); block-delivery.ts by default. */
  send?: (job: BlockDeliveryJob) => Promise<void>;
};

/**
 * A local user's block of a remote account leaves the vault: the outbox's Block and UndoBlock
 * rows (src/blocks/service.ts) become a Block and an Undo(Block) sent to the blocked account's
 * inbox, signed as the user, as Mastodon sends them (docs/federation.md). Nothing goes while the
 * user does not federate. A federating handler of the outbox, like follows (follow-handoff.ts):
 * at least once, with the same activity id each time (the block's), in order per block.
 */
export function registerBlockHandoff(outbox: Outbox, deps: BlockHandoffDeps): void {
  async function jobOf(
    activity: ActivityRow,
    sender: Sender,
  ): Promise<BlockDeliveryJob | undefined> {
    const payload = payloadOf(activity, 'Block') ?? payloadOf(activity, 'UndoBlock');
    const parties = payload && (await toRemoteActor(deps, activity, sender));
    if (!payload || !parties) return undefined;
    return {
      kind: activity.type === 'UndoBlock' ? 'Undo' : 'Block',
      username: parties.username,
      blockUri: `${parties.actor}#blocks/${payload.blockId}`,
      actor: parties.actor,
      object: parties.recipient.uri,
      recipient: parties.recipient,
    };
  }

  outbox.federate<BlockDeliveryJob>({
    name: 'block',
    types: ['Block', 'UndoBlock'],
    job: jobOf,
    send:
      deps.send ??
      sendWithFedify(deps, async () => (await import('./block-delivery.ts')).sendBlockActivity),
  });
}
