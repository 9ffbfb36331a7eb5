/**
 * The offline queue's store in IndexedDB: one database per signed-in user
 * (`vault-outbox-<user id>`), so a change is only ever sent by the user who made it, with one
 * object store of changes keyed by an increasing number (the queue's order). Photos are kept as
 * the Blobs they are (IndexedDB stores files as they are).
 */
import { openDatabase, transact as transactOn } from './idb.ts';
import type { NewChange, QueueStore, QueuedChange } from './queue-store.ts';

const VERSION = 1;
const CHANGES = 'changes';

function open(name: string): Promise<IDBDatabase> {
  return openDatabase(name, VERSION, (db) => {
    db.createObjectStore(CHANGES, { keyPath: 'seq', autoIncrement: true });
  });
}

const transact = <T>(
  db: IDBDatabase,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
) => transactOn(db, CHANGES, mode, work);

/**
 * The database's name keeps the queue's former name, "outbox": a database of another name would
 * be another queue, and the changes waiting on a device in the old one would never be sent.
 */
export function queueDatabaseName(userId: number): string {
  return `vault-outbox-${userId}`;
}

/** The store of `userId`'s queue; the database is opened on first use. */
export function indexedDbStore(userId: number): QueueStore {
  let db: Promise<IDBDatabase> | undefined;
  const database = () => (db ??= open(queueDatabaseName(userId)));
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
