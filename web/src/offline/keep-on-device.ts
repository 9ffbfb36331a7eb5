/**
 * Keeps the device copy (device-copy.ts) up to date while someone is signed in: the answers of
 * their own lists, written a moment after they change, and, once at start and whenever the
 * connection returns, every bottle of their cellar, so that any entry's bottles can be opened
 * in a basement even if its dialog was never opened before the signal went.
 */
import { dehydrate, type QueryClient } from '@tanstack/query-core';
import type { User } from '../api/types.ts';
import { keepFor, writeDeviceCopy, type KeptQueries } from './device-copy.ts';
import { fetchWholeCellar, isKept, keepInMemory } from './device-queries.ts';
import { followReachability } from './follow-reachability.ts';
import { browserOffline } from './send-or-queue.ts';

/** The window's 'online' event, where there is a window (unit tests run in Node). */
interface OnlineEvents {
  addEventListener?(type: 'online', listener: () => void): void;
  removeEventListener?(type: 'online', listener: () => void): void;
}
const events = globalThis as OnlineEvents;

/** How long after a change the copy is written (changes in between are written together). */
export const SAVE_DELAY_MS = 1000;
/** The cellar is fetched again at most this often (at start and when the connection returns). */
export const CELLAR_REFRESH_MS = 5 * 60 * 1000;
/** When each cache last had the whole cellar fetched (a changed profile keeps it afresh). */
const cellarFetchedAt = new WeakMap<QueryClient, number>();

/**
 * Keeps `user`'s copy while the returned function has not been called: a moment after start
 * and after each change of the cache (with what the copy held that this session has not asked
 * for), the answers kept in memory meanwhile; the whole cellar is fetched at start and when the connection
 * returns (at most every CELLAR_REFRESH_MS).
 */
export function keepOnDevice(client: QueryClient, user: User): () => void {
  followReachability(client);
  keepInMemory(client);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  // What the device kept before and this session has not asked for yet stays in the copy.
  let carried: KeptQueries = [];
  keepFor(user.id).then(
    (kept) => {
      carried = kept;
    },
    () => undefined,
  );

  const save = () => {
    timer = undefined;
    if (stopped) return;
    const state = dehydrate(client, {
      shouldDehydrateQuery: isKept,
      shouldDehydrateMutation: () => false,
    });
    const asked = new Set(state.queries.map((query) => query.queryHash));
    const queries = {
      ...state,
      queries: [...state.queries, ...carried.filter((query) => !asked.has(query.queryHash))],
    };
    writeDeviceCopy({ user, queries, savedAt: Date.now() }).catch(() => undefined);
  };
  const later = () => {
    timer ??= setTimeout(save, SAVE_DELAY_MS);
  };
  const refreshCellar = () => {
    const at = cellarFetchedAt.get(client) ?? -Infinity;
    if (browserOffline() || Date.now() - at < CELLAR_REFRESH_MS) return;
    cellarFetchedAt.set(client, Date.now());
    fetchWholeCellar(client).catch(() => cellarFetchedAt.delete(client));
  };

  later();
  refreshCellar();
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type === 'removed' || (event.type === 'updated' && event.action.type === 'success')) {
      later();
    }
  });
  events.addEventListener?.('online', refreshCellar);
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
    events.removeEventListener?.('online', refreshCellar);
  };
}
