import { useSyncExternalStore } from 'react';
import type { QueuedChange } from './queue-store.ts';
import { currentQueue, subscribeCurrentQueue } from './send-or-queue.ts';

const NONE: readonly QueuedChange[] = [];
const nothing = () => () => undefined;

/**
 * The signed-in user's changes waiting in the offline queue (not those refused), and those just
 * sent until the lists are fetched again, kept up to date: what waiting.ts turns into the items shown as waiting. The queue is the one the header's
 * SyncStatus runs (loaded just after the first render): none until then.
 */
export function useWaitingChanges(): readonly QueuedChange[] {
  const queue = useSyncExternalStore(subscribeCurrentQueue, currentQueue);
  return useSyncExternalStore(queue?.subscribe ?? nothing, () => queue?.snapshot().shown ?? NONE);
}
