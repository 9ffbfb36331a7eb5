import { Outbox } from './outbox.ts';
import { indexedDbStore } from './outbox-idb.ts';

const outboxes = new Map<number, Outbox>();

/** The queue of `userId` on this device, kept in IndexedDB (one per user, for the page's life). */
export function outboxOf(userId: number): Outbox {
  let outbox = outboxes.get(userId);
  if (!outbox) {
    outbox = new Outbox(indexedDbStore(userId));
    outboxes.set(userId, outbox);
  }
  return outbox;
}
