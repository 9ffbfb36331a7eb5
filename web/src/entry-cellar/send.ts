/**
 * The one door for the writes of an entry's cellar that must also work without a signal (adding
 * bottles, opening one, logging a tasting): every such call goes through `sendCellarWrite`, so
 * keeping them for later when there is no connection is decided here alone. The answer says
 * whether the vault answered (`queued: false`, with its answer) or the change waits on the
 * device to be sent (`queued: true`), the shape of the offline queue's `sendOrQueue`.
 */
import type { AnswerOf } from '../../../contract/routes/index.ts';
import type { CallInput } from '../api/call.ts';
import { sendOrQueue } from '../offline/send-or-queue.ts';

type CellarWrite =
  | 'POST /beverages/{id}/bottles'
  | 'POST /beverages/{id}/bottles/{bottleId}/open'
  | 'POST /beverages/{id}/tastings'
  | 'PATCH /beverages/{id}/tastings/{tastingId}';

export type CellarSendResult<K extends CellarWrite> =
  { queued: false; answer: AnswerOf<K> } | { queued: true };

/**
 * Sends a cellar write now, or keeps it in the offline queue (web/src/offline/send-or-queue.ts)
 * when there is no connection. `label` says what it is ('Open a bottle of Musar') for the list
 * of changes waiting to sync.
 */
export async function sendCellarWrite<K extends CellarWrite>(
  route: K,
  input: CallInput<K>,
  label: string,
): Promise<CellarSendResult<K>> {
  const sent = await sendOrQueue(route, input, label);
  return sent.queued ? { queued: true } : { queued: false, answer: sent.answer };
}
