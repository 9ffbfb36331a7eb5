/**
 * The little of IndexedDB the offline parts use (the queue, the device copy): a request as a
 * promise, a database opened with its object stores, and one transaction that resolves once it
 * has completed (so what was written is on the device).
 */

export function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/** Opens `name` at `version`, making its stores with `upgrade` when it is new or older. */
export function openDatabase(
  name: string,
  version: number,
  upgrade: (db: IDBDatabase) => void,
): Promise<IDBDatabase> {
  const request = indexedDB.open(name, version);
  request.onupgradeneeded = () => upgrade(request.result);
  return done(request);
}

/** Runs `work` in a transaction on `storeName` and resolves once the transaction completed. */
export async function transact<T>(
  db: IDBDatabase,
  storeName: string,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const transaction = db.transaction(storeName, mode);
  const result = done<T>(work(transaction.objectStore(storeName)));
  await new Promise<void>((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB failed'));
    transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB aborted'));
  });
  return result;
}
