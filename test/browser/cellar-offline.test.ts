import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserSession } from '../helpers/browser.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { seedEntry } from './vault-seed.ts';
import { KEPT, syncButton, syncCount, WAITING_MARK } from './sync-status.ts';

/*
 * An entry's cellar without a signal, on a phone (390 px) with the page already loaded: opening
 * a bottle with a tasting and adding a bottle line are kept on the device, counted in the header,
 * and applied once when the connection returns, also when the vault's first answer was lost.
 */

const PHONE = { width: 390, height: 844 };

const people = peopleInBrowsers([
  { username: 'olive', password: 'olive-password-1', fullName: 'Olive' },
]);
/** The test's page and its context (to take the connection away). */
let session: BrowserSession | undefined;

interface Line {
  id: number;
  quantity: number;
  vintage: number | null;
}
interface Tasting {
  rating: number | null;
  notes: string;
}

/** An entry of olive's with one line of six bottles, and the wine page at phone width. */
async function entryWithSixBottles(name: string): Promise<{ page: Page; id: number }> {
  const { id } = await seedEntry(people.server, 'olive', { name, type: 'WINE', subtype: 'Syrah' });
  session = await people.sessionAs('olive', '/wine', PHONE);
  const { page } = session;
  const added = await page.request.post(`/api/beverages/${id}/bottles`, {
    data: { quantity: 6, sizeMl: 750, vintage: 2017 },
  });
  expect(added.status()).toBe(201);
  await page.reload();
  await page.locator('.sync-status').waitFor({ state: 'attached' });
  return { page, id };
}

/**
 * What the vault itself holds for the entry, read through its domain (not over HTTP: a pooled
 * keep-alive socket of the page's request context, idle past the server's timeout, is reset).
 */
async function vault(id: number): Promise<{ lines: Line[]; tastings: Tasting[] }> {
  const user = (await people.server.ctx.users.findByUsername('olive'))!;
  const viewer = { id: user.id, role: user.role };
  const lines = await people.server.ctx.bottles.list(viewer, id);
  return {
    lines: [...lines].sort((a, b) => (a.vintage ?? 0) - (b.vintage ?? 0)),
    tastings: await people.server.ctx.tastings.list(viewer, id),
  };
}

/** The entry's dialog, with its bottles loaded (while there is a signal). */
async function openDialog(page: Page, name: string) {
  await page
    .getByRole('article', { name, exact: true })
    .getByRole('button', { name: `Bottles and tastings of ${name}` })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Bottles and tastings' });
  await dialog.getByRole('listitem', { name: /^6 × 750 ml · 2017/ }).waitFor();
  return dialog;
}

/** Opens one bottle of the six in the open dialog, with a rated tasting. */
async function openOneWithTasting(page: Page, notes: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Bottles and tastings' });
  const line = dialog.getByRole('listitem', { name: /^6 × 750 ml · 2017/ });
  await line.getByRole('button', { name: /^Open a bottle/ }).click();
  const opening = page.getByRole('dialog', { name: 'Open a bottle' });
  await opening.getByRole('radio', { name: '4 out of 5' }).check();
  await opening.getByLabel('Tasting notes').fill(notes);
  await opening.getByRole('button', { name: 'Open the bottle' }).click();
  await dialog.waitFor();
}

/** The texts of the open dialog's tastings, newest first. */
const tastingTexts = (page: Page) =>
  page
    .getByRole('dialog', { name: 'Bottles and tastings' })
    .getByRole('listitem', { name: /^Tasting of / })
    .allTextContents();

/** The names of the open dialog's bottle lines, each with whether it is marked as waiting. */
const bottleLines = (page: Page) =>
  page
    .getByRole('dialog', { name: 'Bottles and tastings' })
    .getByRole('listitem', { name: / × 750 ml/ })
    .evaluateAll(
      (items, mark) =>
        items.map((item) => ({
          name: item.getAttribute('aria-label'),
          waiting: item.textContent.includes(mark),
        })),
      WAITING_MARK,
    );

describe("an entry's cellar without a signal", () => {
  it('keeps an opening with its tasting and a new bottle line, counts two, and applies each once online', async () => {
    const name = 'Hermitage La Chapelle';
    const { page, id } = await entryWithSixBottles(name);
    expect(await syncCount(page)).toBeNull();

    const dialog = await openDialog(page, name);
    await session!.context.setOffline(true);
    await openOneWithTasting(page, 'Smoke and violets, in the cellar.');
    // Each form says so in the same words as the log form.
    await page.locator('.note--success', { hasText: KEPT }).first().waitFor();
    await dialog.getByRole('button', { name: 'Add bottles' }).click();
    const form = page.getByRole('dialog', { name: 'Add bottles' });
    await form.getByLabel('Quantity').fill('2');
    await form.getByLabel('Vintage').fill('2020');
    await form.getByRole('button', { name: 'Add bottles' }).click();
    await dialog.waitFor();
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('2 waiting to sync');
    // Nothing reached the vault.
    expect((await vault(id)).lines.map((line) => line.quantity)).toEqual([6]);
    // Both show where they will be, marked as waiting: the opening's tasting, the new bottles.
    expect(await tastingTexts(page)).toEqual([
      expect.stringMatching(new RegExp(`${WAITING_MARK}.*Smoke and violets, in the cellar\\.`)),
    ]);
    expect(await bottleLines(page)).toEqual([
      { name: '5 × 750 ml · 2017, No place', waiting: false },
      { name: '2 × 750 ml · 2020, No place', waiting: true },
    ]);
    expect(await dialog.locator('.cellar-entry__count').textContent()).toBe('7 bottles');

    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes(`/api/beverages/${id}/`)) {
        writes.push(request.headers()['idempotency-key'] ?? '');
      }
    });
    await session!.context.setOffline(false);
    await expect.poll(() => syncCount(page), { timeout: 90_000 }).toBeNull();
    expect(writes).toHaveLength(2);
    expect(writes.every((key) => /^[0-9a-f-]{36}$/.test(key))).toBe(true);
    // The vault's own tasting and line take their places: once each, no longer waiting.
    await expect
      .poll(() => tastingTexts(page), { timeout: 30_000 })
      .toEqual([expect.not.stringContaining(WAITING_MARK)]);
    expect(await tastingTexts(page)).toEqual([
      expect.stringContaining('Smoke and violets, in the cellar.'),
    ]);
    await expect
      .poll(() => bottleLines(page), { timeout: 30_000 })
      .toEqual([
        { name: '5 × 750 ml · 2017, No place', waiting: false },
        { name: '2 × 750 ml · 2020, No place', waiting: false },
      ]);

    const { lines, tastings } = await vault(id);
    expect(lines.map(({ quantity, vintage }) => ({ quantity, vintage }))).toEqual([
      { quantity: 5, vintage: 2017 },
      { quantity: 2, vintage: 2020 },
    ]);
    expect(tastings).toEqual([
      expect.objectContaining({ rating: 4, notes: 'Smoke and violets, in the cellar.' }),
    ]);
  }, 180_000);

  it('sends an opening again with the same key when its answer was lost, and takes one bottle out', async () => {
    const name = 'Cornas Reynard';
    const { page, id } = await entryWithSixBottles(name);
    const keys: string[] = [];
    await page.route('**/api/beverages/*/bottles/*/open', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      keys.push(request.headers()['idempotency-key'] ?? '');
      if (keys.length > 1) return route.continue();
      // The vault receives and applies it; its answer never comes back.
      await route.fetch();
      return route.abort('connectionreset');
    });

    const dialog = await openDialog(page, name);
    await openOneWithTasting(page, 'Lost answer, found bottle.');
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('1 waiting to sync');
    // The vault did apply the first one.
    expect((await vault(id)).lines.map((line) => line.quantity)).toEqual([5]);

    await dialog.getByRole('button', { name: 'Close' }).click();
    await syncButton(page).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => syncCount(page), { timeout: 30_000 }).toBeNull();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const { lines, tastings } = await vault(id);
    expect(lines.map((line) => line.quantity)).toEqual([5]);
    expect(tastings).toHaveLength(1);
  }, 120_000);

  it("shows a tasting logged offline first in the entry's tastings, marked as waiting, until the vault has it", async () => {
    const name = 'Saint-Joseph Offerus';
    const { page, id } = await entryWithSixBottles(name);
    const dialog = await openDialog(page, name);

    await session!.context.setOffline(true);
    await dialog.getByRole('button', { name: 'Log a tasting' }).click();
    const form = page.getByRole('dialog', { name: 'Log a tasting' });
    await form.getByRole('radio', { name: '3 out of 5' }).check();
    await form.getByLabel('Tasting notes').fill('Pepper, by torchlight.');
    await form.getByRole('button', { name: 'Log tasting' }).click();
    await page.locator('.note--success', { hasText: KEPT }).first().waitFor();
    await dialog.getByRole('heading', { name: 'Tastings', exact: true }).waitFor();
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('1 waiting to sync');
    expect(await tastingTexts(page)).toEqual([
      expect.stringMatching(new RegExp(`${WAITING_MARK}.*Pepper, by torchlight\\.`)),
    ]);
    // It is shown, not yet kept by the vault: nothing to change or delete.
    const kept = dialog.getByRole('listitem', { name: /^Tasting of / });
    expect(await kept.getByRole('button').count()).toBe(0);
    expect((await vault(id)).tastings).toEqual([]);

    await session!.context.setOffline(false);
    await expect.poll(() => syncCount(page), { timeout: 90_000 }).toBeNull();
    await expect
      .poll(() => tastingTexts(page), { timeout: 30_000 })
      .toEqual([expect.not.stringContaining(WAITING_MARK)]);
    expect(await tastingTexts(page)).toEqual([expect.stringContaining('Pepper, by torchlight.')]);
    expect((await vault(id)).tastings).toEqual([
      expect.objectContaining({ rating: 3, notes: 'Pepper, by torchlight.' }),
    ]);
  }, 180_000);
});
