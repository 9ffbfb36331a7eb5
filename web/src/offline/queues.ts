import { OfflineQueue } from './queue.ts';
import { indexedDbStore } from './queue-idb.ts';

const queues = new Map<number, OfflineQueue>();

/** The queue of `userId` on this device, kept in IndexedDB (one per user, for the page's life). */
export function queueOf(userId: number): OfflineQueue {
  let queue = queues.get(userId);
  if (!queue) {
    queue = new OfflineQueue(indexedDbStore(userId));
    queues.set(userId, queue);
  }
  return queue;
}
