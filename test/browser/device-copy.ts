import type { Page } from 'playwright-core';

/**
 * What the vault keeps on the device to open without a connection (web/src/offline/
 * device-copy.ts), read from IndexedDB as the page sees it: whose it is and the keys of the
 * answers kept; null when the device keeps none.
 */
export async function deviceCopy(page: Page): Promise<{ user: string; keys: unknown[][] } | null> {
  // Opening a database that does not exist would make an empty one: look first.
  const copy = (await page.evaluate(`(async () => {
    const names = (await indexedDB.databases()).map((database) => database.name);
    if (!names.includes('vault-device')) return null;
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('vault-device');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const copy = await new Promise((resolve, reject) => {
      const request = db.transaction('copy').objectStore('copy').get('current');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return copy ?? null;
  })()`)) as { user: { username: string }; queries: { queries: { queryKey: unknown[] }[] } } | null;
  if (!copy) return null;
  return {
    user: copy.user.username,
    keys: copy.queries.queries.map((query) => query.queryKey),
  };
}
