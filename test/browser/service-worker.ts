import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** Waits until the service worker controls the page (it claims it once installed). */
export async function controlledByWorker(page: Page): Promise<void> {
  // Given as text: the page's globals (navigator.serviceWorker, caches) are not Node's.
  await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
  await expect
    .poll(() => page.evaluate('navigator.serviceWorker.controller !== null'), { timeout: 15_000 })
    .toBe(true);
}
