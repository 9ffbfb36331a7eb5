import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import type { BrowserSession } from '../helpers/browser.ts';
import { HTML, jpeg } from '../helpers/images.ts';
import { outsideViewport, scrollWidth } from './phone-checks.ts';
import { controlledByWorker } from './service-worker.ts';
import { KEPT, syncButton, syncCount, WAITING_MARK } from './sync-status.ts';
import { seedEntry } from './vault-seed.ts';

// Logging in a cellar without a signal, on a phone (390 px) with the page already loaded: the
// entries are kept on the device, counted in the header, and sent once when the connection
// returns. The vault's own answers decide everything (a real server, a real browser).

const PHONE = { width: 390, height: 844 };

const people = peopleInBrowsers([
  { username: 'hazel', password: 'hazel-password-1', fullName: 'Hazel' },
]);
/** The test's page and its context (to take the connection away). */
let session: BrowserSession | undefined;

/** Hazel's entries named `name`, asked of the vault itself. */
async function entriesNamed(
  name: string,
): Promise<{ name: string; notes: string; status: string; photoPath: string | null }[]> {
  const { context } = session!;
  const answer = await context.request.get(
    `${people.server.url}/api/beverages?q=${encodeURIComponent(name)}`,
  );
  expect(answer.status()).toBe(200);
  const { beverages } = (await answer.json()) as {
    beverages: { name: string; notes: string; status: string; photoPath: string | null }[];
  };
  return beverages.filter((entry) => entry.name === name);
}

/** The dashboard at phone width, with the header's sync status loaded. */
async function openDashboard(options: { serviceWorker?: boolean } = {}): Promise<Page> {
  session = await people.sessionAs('hazel', '/', { ...PHONE, ...options });
  const { page } = session;
  await page.getByRole('region', { name: 'Log a new beverage' }).waitFor();
  await page.locator('.sync-status').waitFor({ state: 'attached' });
  return page;
}

async function logEntry(
  page: Page,
  name: string,
  photo?: { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const form = page.getByRole('region', { name: 'Log a new beverage' });
  await form.getByLabel('Name').fill(name);
  if (photo) {
    await form.getByLabel('Photo').setInputFiles(photo);
    await form.locator('.photo-input img').first().waitFor();
  }
  await form.getByRole('button', { name: 'Log beverage' }).click();
}

describe('logging without a signal', () => {
  it('keeps two entries logged offline (one with a photo), counts them, and sends each once when the connection returns', async () => {
    const page = await openDashboard({ serviceWorker: true });
    await controlledByWorker(page);
    expect(await syncCount(page)).toBeNull();

    await session!.context.setOffline(true);
    await logEntry(page, 'Cellar Ardbeg');
    await page.locator('.note--success', { hasText: KEPT }).first().waitFor();
    // The form is ready for the next one.
    expect(await page.getByLabel('Name').inputValue()).toBe('');
    await logEntry(page, 'Cellar Barolo', {
      name: 'barolo.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg(300, 400),
    });
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('2 waiting to sync');
    expect(await page.getByRole('alert').count()).toBe(0);

    // At 390 px the count fits in the header, and it lists what waits.
    expect(await outsideViewport(syncButton(page), PHONE.width)).toBeNull();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await syncButton(page).click();
    const panel = page.getByRole('region', { name: 'Waiting to sync' });
    expect(await panel.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('Log Cellar Ardbeg'),
      expect.stringContaining('Log Cellar Barolo'),
    ]);
    expect(await outsideViewport(panel, PHONE.width)).toBeNull();

    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/beverages') {
        posts.push(request.headers()['idempotency-key'] ?? '');
      }
    });
    await session!.context.setOffline(false);
    // Sent when the browser says the connection is back, or at the next try at the latest.
    await expect.poll(() => syncCount(page), { timeout: 90_000 }).toBeNull();
    expect(posts).toHaveLength(2);
    expect(posts.every((key) => /^[0-9a-f-]{36}$/.test(key))).toBe(true);

    // The dashboard's list shows them, and the vault holds each exactly once, with the photo.
    const list = page.getByRole('main');
    await list.getByText('Cellar Ardbeg').first().waitFor();
    await list.getByText('Cellar Barolo').first().waitFor();
    expect(await entriesNamed('Cellar Ardbeg')).toHaveLength(1);
    const [barolo, ...more] = await entriesNamed('Cellar Barolo');
    expect(more).toEqual([]);
    expect(barolo?.photoPath).toMatch(/^media\//);
  }, 180_000);

  it("shows an entry logged offline in its lists, marked as waiting, with Sync now disabled until the connection returns; then the vault's own entry takes its place", async () => {
    const page = await openDashboard({ serviceWorker: true });
    await controlledByWorker(page);
    const name = 'Waiting Talisker';
    const whiskey = page.getByRole('region', { name: 'Whiskey' });
    const card = (scope: Page | typeof whiskey) =>
      scope.getByRole('article', { name, exact: true });

    await session!.context.setOffline(true);
    await logEntry(page, name);
    await page.locator('.note--success', { hasText: KEPT }).first().waitFor();
    // On the dashboard, in the whiskey panel's 'Tried' list, marked as waiting.
    const tried = whiskey.getByRole('region', { name: 'Tried' });
    await card(tried).waitFor();
    expect(await card(tried).textContent()).toContain(WAITING_MARK);
    expect(await card(whiskey.getByRole('region', { name: 'To try' })).count()).toBe(0);
    expect(await outsideViewport(card(tried), PHONE.width)).toBeNull();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);

    // 'Sync now' cannot sync without a connection, and says so.
    await syncButton(page).click();
    const panel = page.getByRole('region', { name: 'Waiting to sync' });
    const syncNow = panel.getByRole('button', { name: 'Sync now' });
    expect(await syncNow.isDisabled()).toBe(true);
    expect(await syncNow.getAttribute('aria-describedby')).toBeTruthy();
    await panel.getByText('Sync starts when you are back online.').waitFor();
    await syncButton(page).click();

    // The whiskey archive (fetched from the device) shows it too.
    await tried.getByRole('link', { name: 'See all' }).click();
    const archiveTried = page.getByRole('main').getByRole('region', { name: 'Tried' });
    await card(archiveTried).waitFor();
    expect(await card(archiveTried).textContent()).toContain(WAITING_MARK);

    await session!.context.setOffline(false);
    await expect.poll(() => syncCount(page), { timeout: 90_000 }).toBeNull();
    // The vault's entry replaces the waiting one: one card, with no mark.
    await expect
      .poll(
        async () => (await card(page).allTextContents()).map((text) => text.includes(WAITING_MARK)),
        {
          timeout: 30_000,
        },
      )
      .toEqual([false]);
    expect(
      await card(page)
        .getByRole('button', { name: `Edit ${name}` })
        .count(),
    ).toBe(1);
    expect(await entriesNamed(name)).toHaveLength(1);
  }, 180_000);

  it('shows an edit made offline on the card, with its new values marked as waiting, until the vault has it', async () => {
    const name = 'Edited offline Springbank';
    await seedEntry(people.server, 'hazel', {
      name,
      subtype: 'Single Malt',
      notes: 'Before the basement.',
    });
    const page = await openDashboard();
    const card = page.getByRole('main').getByRole('article', { name, exact: true });
    await card.waitFor();

    await session!.context.setOffline(true);
    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit entry' });
    await dialog.getByLabel('Notes').fill('Tasted by candlelight.');
    await dialog.getByRole('radio', { name: 'To try' }).check();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.note--success', { hasText: KEPT }).first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('1 waiting to sync');
    // The card shows what was typed, marked as waiting; the vault still has the old notes.
    expect(await card.textContent()).toContain('Tasted by candlelight.');
    expect(await card.textContent()).toContain(WAITING_MARK);
    expect(await card.textContent()).not.toContain('Before the basement.');
    // Moved to the list it now belongs to, as a saved change is.
    const whiskey = page.getByRole('region', { name: 'Whiskey' });
    const inList = (list: string) =>
      whiskey.getByRole('region', { name: list }).getByRole('article', { name, exact: true });
    expect(await inList('To try').count()).toBe(1);
    expect(await inList('Tried').count()).toBe(0);

    // The lists are held back once the connection is here: the vault has the change, the page
    // still has the older copy of the entry.
    let releaseLists: () => void = () => undefined;
    const listsHeld = new Promise<void>((resolve) => (releaseLists = resolve));
    const isList = (url: URL) => url.pathname === '/api/beverages';
    await page.route(isList, async (route) => {
      await listsHeld;
      await route.continue();
    });
    await session!.context.setOffline(false);
    await expect.poll(() => syncCount(page), { timeout: 90_000 }).toBeNull();
    await expect
      .poll(async () => (await entriesNamed(name))[0]?.notes)
      .toBe('Tasted by candlelight.');
    // Sent, and still shown as typed (not the older copy) until the lists come.
    expect(await card.textContent()).toContain('Tasted by candlelight.');
    expect(await card.textContent()).not.toContain('Before the basement.');
    releaseLists();
    await expect.poll(() => card.textContent(), { timeout: 30_000 }).not.toContain(WAITING_MARK);
    expect(await card.textContent()).toContain('Tasted by candlelight.');
    const [entry, ...more] = await entriesNamed(name);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ notes: 'Tasted by candlelight.', status: 'TO_TRY' });
    expect(await inList('To try').count()).toBe(1);
    expect(await inList('Tried').count()).toBe(0);
  }, 180_000);

  it('sends an entry again with the same key when its answer was lost, and the vault applies it once', async () => {
    const page = await openDashboard();
    const keys: string[] = [];
    await page.route('**/api/beverages', async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      keys.push(request.headers()['idempotency-key'] ?? '');
      if (keys.length > 1) return route.continue();
      // The vault receives and applies it; its answer never comes back.
      await route.fetch();
      return route.abort('connectionreset');
    });

    await logEntry(page, 'Lost answer Lagavulin');
    await page.locator('.note--success', { hasText: KEPT }).first().waitFor();
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('1 waiting to sync');
    expect(await entriesNamed('Lost answer Lagavulin')).toHaveLength(1);

    await syncButton(page).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => syncCount(page), { timeout: 30_000 }).toBeNull();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await entriesNamed('Lost answer Lagavulin')).toHaveLength(1);
  });

  it('keeps the queue on the device across a reload, sends it at start, and shows a refused change with its reason until discarded', async () => {
    const page = await openDashboard({ serviceWorker: true });
    await controlledByWorker(page);

    await session!.context.setOffline(true);
    // Not a photo at all: the browser cannot tell, the vault will.
    await logEntry(page, 'Broken photo Port', {
      name: 'port.png',
      mimeType: 'image/png',
      buffer: HTML,
    });
    await page.locator('.note--success', { hasText: KEPT }).first().waitFor();
    await logEntry(page, 'Fine Riesling');
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBe('2 waiting to sync');

    // The app closed and opened again in the cellar: the device still has both.
    await page.reload();
    await session!.context.setOffline(false);
    await expect.poll(() => syncCount(page), { timeout: 60_000 }).toBe('1 not synced');
    expect(await entriesNamed('Fine Riesling')).toHaveLength(1);
    expect(await entriesNamed('Broken photo Port')).toEqual([]);

    await syncButton(page).click();
    const panel = page.getByRole('region', { name: 'Waiting to sync' });
    const refused = panel.getByRole('list', { name: 'Not synced' }).getByRole('listitem');
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toMatch(/Log Broken photo Port.*The vault refused it: \S+/);
    await panel.getByRole('button', { name: 'Discard Log Broken photo Port' }).click();
    await expect.poll(() => syncCount(page), { timeout: 20_000 }).toBeNull();
    expect(await entriesNamed('Broken photo Port')).toEqual([]);
  }, 120_000);
});
