/**
 * The device copy: what the vault needs to open without a connection, kept in IndexedDB while
 * someone is signed in (docs/web-client.md, "The device copy"). It holds the signed-in user
 * and the answers of their own lists: entries, the cellar (its places, every entry's bottles)
 * and tastings. It is written by keep-on-device.ts as answers arrive and read at a start that
 * gets no answer from the vault, so the installed app opens in a basement as it was left.
 *
 * One copy per browser profile (a session cookie is per profile too), forgotten at sign-out and
 * whenever the vault says the session is over (a 401). Writes happen only while keeping is on
 * (`keepFor`), so a save that was already scheduled cannot bring a forgotten copy back.
 */
import { hydrate, type DehydratedState, type QueryClient } from '@tanstack/query-core';
import type { User } from '../api/types.ts';
import { keepInMemory } from './device-queries.ts';
import { followReachability } from './follow-reachability.ts';
import { openDatabase, transact } from './idb.ts';

export interface DeviceCopy {
  user: User;
  /** The kept answers, as TanStack Query dehydrates them. */
  queries: DehydratedState;
  /** When it was written (ms since the epoch). */
  savedAt: number;
}

/** The longest a session lasts by default: an older copy is not used, and is forgotten. */
export const DEVICE_COPY_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** The answers a copy holds, each with its key. */
export type KeptQueries = DehydratedState['queries'];

export const DEVICE_DATABASE = 'vault-device';
const STORE = 'copy';
const KEY = 'current';

let db: Promise<IDBDatabase> | undefined;
const database = () =>
  (db ??= openDatabase(DEVICE_DATABASE, 1, (opened) => opened.createObjectStore(STORE)));

/** Whose copy may be written now: set while signed in, cleared when the copy is forgotten. */
let keeping: number | null = null;

/**
 * Lets the copy of `userId` be written (until it is forgotten), and answers the answers the
 * device kept for them before. Someone else's copy, or one too old to use, is forgotten.
 */
export async function keepFor(userId: number, now = Date.now()): Promise<KeptQueries> {
  keeping = userId;
  const opened = await database();
  const copy = (await transact(opened, STORE, 'readonly', (store) => store.get(KEY))) as
    DeviceCopy | undefined;
  if (!copy) return [];
  if (copy.user.id === userId && now - copy.savedAt <= DEVICE_COPY_MAX_AGE_MS) {
    return copy.queries.queries;
  }
  if (keeping === userId) await transact(opened, STORE, 'readwrite', (store) => store.delete(KEY));
  return [];
}

export async function writeDeviceCopy(copy: DeviceCopy): Promise<void> {
  const opened = await database();
  // Checked just before the transaction starts: one begun later than a forget runs after it.
  if (keeping !== copy.user.id) return;
  await transact(opened, STORE, 'readwrite', (store) => store.put(copy, KEY));
}

export async function readDeviceCopy(now = Date.now()): Promise<DeviceCopy | null> {
  const copy = (await transact(await database(), STORE, 'readonly', (store) => store.get(KEY))) as
    DeviceCopy | undefined;
  if (!copy || now - copy.savedAt > DEVICE_COPY_MAX_AGE_MS) return null;
  return copy;
}

/** Forgets the copy: at sign-out, and when the vault says the session is over. */
export async function forgetDeviceCopy(): Promise<void> {
  keeping = null;
  await transact(await database(), STORE, 'readwrite', (store) => store.delete(KEY));
}

/** A session the device remembers: its user, and how to fill a new query cache with the copy. */
export interface RememberedSession {
  user: User;
  offline: true;
  restore: (client: QueryClient) => void;
}

/** What a start without an answer from the vault signs in with, if the device kept a copy. */
export async function rememberedSession(): Promise<RememberedSession | null> {
  const copy = await readDeviceCopy().catch(() => null);
  if (!copy) return null;
  const restore = (client: QueryClient) => {
    followReachability(client);
    keepInMemory(client);
    hydrate(client, copy.queries);
  };
  return { user: copy.user, offline: true, restore };
}
