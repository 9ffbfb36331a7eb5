import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { BrowserSession } from '../helpers/browser.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { deviceCopy } from './device-copy.ts';
import { seedEntry } from './vault-seed.ts';
import { controlledByWorker } from './service-worker.ts';
import { syncCount } from './sync-status.ts';

/*
 * The installed app opened in a basement: the page is loaded again with no connection at all.
 * The vault opens as the device kept it (the session, the lists, every entry's bottles, even
 * one whose dialog was never opened), takes an opening and a new entry, and sends both once
 * when the connection returns. Signing out forgets what the device kept.
 */

const PHONE = { width: 390, height: 844 };

const people = peopleInBrowsers([
  { username: 'basil', password: 'basil-password-1', fullName: 'Basil' },
]);
/** The test's page and its context (to take the connection away). */
let session: BrowserSession | undefined;

/** An entry of basil's with six bottles of 2016, put there through the vault's own services. */
async function entryWithSixBottles(name: string): Promise<number> {
  const { id } = await seedEntry(people.server, 'basil', { name, type: 'WINE', subtype: 'Syrah' });
  const user = (await people.server.ctx.users.findByUsername('basil'))!;
  await people.server.ctx.bottles.add({ id: user.id, role: user.role }, id, {
    quantity: 6,
    sizeMl: 750,
    vintage: 2016,
  });
  return id;
}

const keepsBottlesOf = (copy: { keys: unknown[][] } | null, id: number) =>
  copy?.keys.some((key) => key[1] === 'entry-bottles' && key[2] === id) ?? false;

/** The wine page with the service worker in charge, once the device copy holds `id`'s bottles. */
async function openWinePage(id: number): Promise<Page> {
  session = await people.sessionAs('basil', '/wine', {
    ...PHONE,
    serviceWorker: true,
  });
  const { page } = session;
  await controlledByWorker(page);
  await expect
    .poll(async () => keepsBottlesOf(await deviceCopy(page), id), {
      timeout: 30_000,
    })
    .toBe(true);
  return page;
}

describe('opening the vault without a connection', () => {
  it('opens as the device kept it, opens a bottle whose list was never shown, logs an entry, and sends both once when the connection returns', async () => {
    const name = 'Basement Musar';
    const id = await entryWithSixBottles(name);
    const page = await openWinePage(id);

    await session!.context.setOffline(true);
    await page.reload();
    // Signed in as before, the list as it was, no 'unreachable' screen.
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const card = page.getByRole('article', { name, exact: true });
    await card.waitFor();
    expect(await page.getByText('The vault is unreachable').count()).toBe(0);

    await card.getByRole('button', { name: `Bottles and tastings of ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Bottles and tastings' });
    const line = dialog.getByRole('listitem', { name: /^6 × 750 ml · 2016/ });
    await line.getByRole('button', { name: /^Open a bottle/ }).click();
    const opening = page.getByRole('dialog', { name: 'Open a bottle' });
    await opening.getByRole('radio', { name: '4 out of 5' }).check();
    await opening.getByLabel('Tasting notes').fill('Opened by torchlight.');
    await opening.getByRole('button', { name: 'Open the bottle' }).click();
    // Kept for later, and the line already shows one bottle fewer.
    await dialog.getByRole('listitem', { name: /^5 × 750 ml · 2016/ }).waitFor();
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('1 waiting to sync');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // A new entry from the dashboard, offline too.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    const form = page.getByRole('region', { name: 'Log a new beverage' });
    await form.getByLabel('Name').fill('Basement Barolo');
    await form.getByRole('button', { name: 'Log beverage' }).click();
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('2 waiting to sync');

    const writes: string[] = [];
    page.on('request', (request) => {
      if (
        request.method() === 'POST' &&
        new URL(request.url()).pathname.startsWith('/api/beverages')
      ) {
        writes.push(new URL(request.url()).pathname);
      }
    });
    await session!.context.setOffline(false);
    await expect.poll(() => syncCount(page), { timeout: 90_000 }).toBeNull();
    expect([...writes].sort()).toEqual([
      '/api/beverages',
      expect.stringMatching(new RegExp(`^/api/beverages/${id}/bottles/\\d+/open$`)),
    ]);

    // The vault holds each once: one bottle out, its tasting, one new entry.
    const [bottles, tastings, found] = await Promise.all([
      page.request.get(`/api/beverages/${id}/bottles`),
      page.request.get(`/api/beverages/${id}/tastings`),
      page.request.get(`/api/beverages?q=${encodeURIComponent('Basement Barolo')}`),
    ]);
    const { bottles: lines } = (await bottles.json()) as { bottles: { quantity: number }[] };
    expect(lines.map((bottle) => bottle.quantity)).toEqual([5]);
    expect(((await tastings.json()) as { tastings: unknown[] }).tastings).toEqual([
      expect.objectContaining({ rating: 4, notes: 'Opened by torchlight.' }),
    ]);
    const { beverages } = (await found.json()) as { beverages: { name: string }[] };
    expect(beverages.filter((entry) => entry.name === 'Basement Barolo')).toHaveLength(1);
  }, 180_000);

  it('forgets the device copy at sign-out, so the vault no longer opens offline', async () => {
    const id = await entryWithSixBottles('Sign-out Syrah');
    const page = await openWinePage(id);
    expect((await deviceCopy(page))?.user).toBe('basil');

    await page.getByRole('button', { name: /Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    await expect.poll(() => deviceCopy(page), { timeout: 20_000 }).toBeNull();

    await session!.context.setOffline(true);
    await page.reload();
    await page.getByText('The vault is unreachable').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  }, 120_000);
});
