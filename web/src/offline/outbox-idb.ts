/**
 * The offline queue's store in IndexedDB: one database per signed-in user
 * (`vault-outbox-<user id>`), so a change is only ever sent by the user who made it, with one
 * object store of changes keyed by an increasing number (the queue's order). Photos are kept as
 * the Blobs they are (IndexedDB stores files as they are).
 */
import type { NewChange, OutboxStore, QueuedChange } from './outbox-store.ts';

const VERSION = 1;
const CHANGES = 'changes';

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function open(name: string): Promise<IDBDatabase> {
  const request = indexedDB.open(name, VERSION);
  request.onupgradeneeded = () => {
    request.result.createObjectStore(CHANGES, { keyPath: 'seq', autoIncrement: true });
  };
  return done(request);
}

/** Runs `work` in a transaction on the changes and resolves once the transaction completed. */
async function transact<T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const transaction = db.transaction(CHANGES, mode);
  const result = done(work(transaction.objectStore(CHANGES)));
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB aborted'));
  });
  return result;
}

export function outboxDatabaseName(userId: number): string {
  return `vault-outbox-${userId}`;
}

/** The store of `userId`'s queue; the database is opened on first use. */
export function indexedDbStore(userId: number): OutboxStore {
  let db: Promise<IDBDatabase> | undefined;
  const database = () => (db ??= open(outboxDatabaseName(userId)));
  return {
    list: async () =>
      (await transact(await database(), 'readonly', (store) => store.getAll())) as QueuedChange[],
    add: async (change: NewChange) => {
      const seq = await transact(await database(), 'readwrite', (store) => store.add(change));
      return { ...change, seq: seq as number };
    },
    put: async (change) => {
      await transact(await database(), 'readwrite', (store) => store.put(change));
    },
    remove: async (seq) => {
      await transact(await database(), 'readwrite', (store) => store.delete(seq));
    },
  };
}
