import type { Page } from 'playwright-core';

/** The header's button of the offline queue, while anything waits or was refused. */
export const syncButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /waiting to sync|not synced/ });

/**
 * The header's count: its text, or null once nothing waits. Read in one step, never waiting:
 * a button that goes between two reads (a count, then its text) would hold the second read up
 * until the test's own timeout.
 */
export function syncCount(page: Page): Promise<string | null> {
  return syncButton(page).evaluateAll((buttons) => buttons[0]?.getAttribute('aria-label') ?? null);
}

/** What every form says of a change it kept on the device, in one wording. */
export const KEPT = 'Saved on this device: it will be sent when the connection returns.';

/** The mark of an item shown where it belongs while it waits on the device to be sent. */
export const WAITING_MARK = 'Waiting to sync';
