import type { Federation } from '@fedify/fedify';
import { Block, Undo } from '@fedify/vocab';
import { recipientOf, type FollowRecipient } from './follow-delivery.ts';

/**
 * One block activity to send, in plain data: the local user `username` (`actor`) blocks the
 * remote account `object` (Block) or lifts that block (Undo), whose id is `blockUri`.
 */
export interface BlockDeliveryJob {
  kind: 'Block' | 'Undo';
  username: string;
  blockUri: string;
  actor: string;
  object: string;
  recipient: FollowRecipient;
}

/**
 * The job's activity, shaped as Mastodon's: a Block with the id `{actor}#blocks/{id}` naming the
 * account, and its Undo with the id `{block id}/undo` embedding the Block.
 */
export function blockActivity(job: BlockDeliveryJob): Block | Undo {
  const block = new Block({
    id: new URL(job.blockUri),
    actor: new URL(job.actor),
    object: new URL(job.object),
  });
  if (job.kind === 'Block') return block;
  return new Undo({
    id: new URL(`${job.blockUri}/undo`),
    actor: new URL(job.actor),
    object: block,
  });
}

/**
 * Puts the job's activity into Fedify's queue, signed as the local user, for the blocked
 * account's personal inbox (a block concerns one account). Resolves once it is queued.
 */
export async function sendBlockActivity(
  federation: Federation<void>,
  origin: string,
  job: BlockDeliveryJob,
): Promise<void> {
  const context = federation.createContext(new URL(origin), undefined);
  await context.sendActivity(
    { identifier: job.username },
    recipientOf(job.recipient),
    blockActivity(job),
    {
      orderingKey: job.blockUri,
    },
  );
}
