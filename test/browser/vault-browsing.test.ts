import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { headingText, pathOf } from '../helpers/browser.ts';
import { seedEntry, watchBeverageRequests } from './vault-seed.ts';

const people = peopleInBrowsers([
  { username: 'sage', password: 'sage-password-1' },
  { username: 'basil', password: 'basil-password-1' },
]);

beforeAll(async () => {
  // sage: a searchable vault.
  await seedEntry(people.server, 'sage', {
    name: 'Ardbeg Uigeadail',
    subtype: 'Scotch',
    notes: 'Smoky, tarry, sherried.',
  });
  await seedEntry(people.server, 'sage', {
    name: 'Glenlivet 12',
    subtype: 'Scotch',
    makerName: 'Glenlivet',
  });
  await seedEntry(people.server, 'sage', {
    name: 'Pouilly-Fumé',
    type: 'WINE',
    subtype: 'Sauvignon Blanc',
    notes: 'Gunflint and a SMOKY edge.',
    status: 'TO_TRY',
  });
  await seedEntry(people.server, 'sage', { name: 'Rauchbier', type: 'BEER', subtype: 'Seasonal' });

  // basil: more whiskey than a page holds.
  for (let i = 1; i <= 55; i++) {
    await seedEntry(people.server, 'basil', {
      name: `Cask ${String(i).padStart(2, '0')}`,
      subtype: 'Single Malt',
      rating: (i % 5) + 1,
      inCellar: i === 55,
    });
  }
});

const panelList = (page: Page, type: string, list: 'Tried' | 'To try') =>
  page.getByRole('region', { name: type, exact: true }).getByRole('region', { name: list });

const cardNames = (scope: Locator) =>
  scope
    .getByRole('article')
    .evaluateAll((cards) => cards.map((card) => card.querySelector('h3, h4')?.textContent ?? ''));

describe('searching the vault', () => {
  it('waits 300 ms after the last keystroke, then asks the server once per list', async () => {
    const page = await people.openAs('sage', '/', {
      prepare: (page) => page.clock.install(),
    });
    await page.getByRole('article', { name: 'Rauchbier' }).waitFor();
    const requests = watchBeverageRequests(page);
    const search = page.getByRole('searchbox', { name: 'Search the vault' });

    // The page's time stands still while typing, then moves only as the test says.
    await page.clock.pauseAt(Date.now() + 1_000);
    await search.pressSequentially('  smoky ', { delay: 20 });
    await page.clock.runFor(299);
    // Long enough (in real time) for a request, had one been started, to reach the test.
    await page.waitForTimeout(250);
    expect(requests.all).toHaveLength(0);
    await page.clock.runFor(1);
    await page.clock.resume();
    await panelList(page, 'Beer', 'Tried').getByText('No beverages matched "smoky".').waitFor();

    const searches = requests.of('GET');
    // One request per list (three panels, two lists each), all for the whole, trimmed text.
    expect(searches).toHaveLength(6);
    expect(searches.map((r) => r.url.searchParams.get('q'))).toEqual(Array(6).fill('smoky'));
    expect(searches.map((r) => r.url.searchParams.get('limit'))).toEqual(Array(6).fill('4'));

    await expect
      .poll(() => cardNames(panelList(page, 'Whiskey', 'Tried')))
      .toEqual(['Ardbeg Uigeadail']);
    await expect.poll(() => cardNames(panelList(page, 'Wine', 'To try'))).toEqual(['Pouilly-Fumé']);
    for (const [type, list] of [
      ['Whiskey', 'To try'],
      ['Wine', 'Tried'],
      ['Beer', 'Tried'],
      ['Beer', 'To try'],
    ] as const) {
      await panelList(page, type, list).getByText('No beverages matched "smoky".').waitFor();
    }

    // With a search active, a change reloads the lists from the server.
    requests.clear();
    await page
      .getByRole('article', { name: 'Pouilly-Fumé' })
      .getByRole('button', { name: 'Mark as tried' })
      .click();
    await panelList(page, 'Wine', 'Tried').getByRole('article', { name: 'Pouilly-Fumé' }).waitFor();
    await expect.poll(() => requests.of('GET').length).toBeGreaterThanOrEqual(6);
    expect(requests.of('GET').every((r) => r.url.searchParams.get('q') === 'smoky')).toBe(true);

    // Emptying the box brings every entry back, asked for without q.
    requests.clear();
    await search.fill('   ');
    await page.getByRole('article', { name: 'Glenlivet 12' }).waitFor();
    // The lists before the search show at once from the cache and are asked for again.
    await expect.poll(() => requests.of('GET').length).toBe(6);
    expect(requests.of('GET').every((r) => !r.url.searchParams.has('q'))).toBe(true);
  });

  it('finds entries by maker and subtype, whatever the case', async () => {
    const page = await people.openAs('sage');
    const search = page.getByRole('searchbox', { name: 'Search the vault' });
    await search.fill('GLENLIVET');
    await expect
      .poll(() => cardNames(page.getByRole('region', { name: 'Whiskey', exact: true })))
      .toEqual(['Glenlivet 12']);
    await search.fill('sauvignon');
    await expect
      .poll(() => cardNames(page.getByRole('region', { name: 'Wine', exact: true })))
      .toEqual(['Pouilly-Fumé']);
    await search.fill('zzz-nothing');
    await panelList(page, 'Whiskey', 'Tried')
      .getByText('No beverages matched "zzz-nothing".')
      .waitFor();
  });
});

describe('browsing the vault', () => {
  it('shows four cards per dashboard list and pages the archive with Load more', async () => {
    const page = await people.openAs('basil');
    await expect
      .poll(() => cardNames(panelList(page, 'Whiskey', 'Tried')))
      .toEqual(['Cask 55', 'Cask 54', 'Cask 53', 'Cask 52']);

    await panelList(page, 'Whiskey', 'Tried').getByRole('link', { name: 'See all' }).click();
    expect(await headingText(page)).toBe('Whiskey Logs');
    const tried = page.getByRole('region', { name: 'Tried' });
    await expect.poll(() => tried.getByRole('article').count()).toBe(50);
    await tried.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => tried.getByRole('article').count()).toBe(55);
    const names = await cardNames(tried);
    expect(names[0]).toBe('Cask 55');
    expect(names.at(-1)).toBe('Cask 01');
    expect(new Set(names).size).toBe(55);
    expect(await tried.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it('switches archives whiskey → wine → beer → whiskey and links back to the dashboard', async () => {
    const page = await people.openAs('basil', '/whiskey');
    for (const [title, path] of [
      ['Wine Logs', '/wine'],
      ['Beer Logs', '/beer'],
      ['Whiskey Logs', '/whiskey'],
    ]) {
      // The switch in the page's header, not the navigation item of the same name.
      await page.getByRole('main').getByRole('link', { name: title, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(pathOf(page)).toBe(path);
    }
    await page.getByRole('region', { name: 'Tried' }).getByRole('article').first().waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Back to dashboard' }).click();
    expect(await headingText(page)).toBe('Dashboard');
    expect(pathOf(page)).toBe('/');
  });

  it("says 'Unable to load vault entries.' in a list that fails to load, and retries", async () => {
    let failing = true;
    const page = await people.openAs('sage', '/wine', {
      prepare: (page) =>
        page.route('**/api/beverages?*', (route) =>
          failing && new URL(route.request().url()).searchParams.get('status') === 'TO_TRY'
            ? route.fulfill({ status: 500, json: { message: 'Database is napping' } })
            : route.continue(),
        ),
    });
    const toTry = page.getByRole('region', { name: 'To try' });
    await toTry.getByRole('alert').waitFor();
    expect(await toTry.getByRole('alert').textContent()).toBe('Unable to load vault entries.');
    // The other list is unaffected.
    await page.getByRole('region', { name: 'Tried' }).getByRole('article').first().waitFor();

    failing = false;
    await toTry.getByRole('button', { name: 'Try again' }).click();
    await toTry.getByRole('alert').waitFor({ state: 'detached' });
    expect(await toTry.textContent()).not.toContain('Unable to load vault entries.');
  });

  it('groups the cellar into Ready to pour and Waiting to be opened, or says it is empty', async () => {
    const page = await people.openAs('sage', '/cellar');
    await page.getByText('Your cellar is empty...').waitFor();
    expect(await page.getByRole('region', { name: 'Ready to pour' }).count()).toBe(0);
    await page.context().close();

    await seedEntry(people.server, 'basil', {
      name: 'Unopened Port Charlotte',
      subtype: 'Scotch',
      status: 'TO_TRY',
      inCellar: true,
    });
    const session = await people.sessionAs('basil', '/cellar');
    const ready = session.page.getByRole('region', { name: 'Ready to pour' });
    const waiting = session.page.getByRole('region', { name: 'Waiting to be opened' });
    await expect.poll(() => cardNames(ready)).toEqual(['Cask 55']);
    await expect.poll(() => cardNames(waiting)).toEqual(['Unopened Port Charlotte']);
    expect(await session.page.getByText('Your cellar is empty...').count()).toBe(0);

    // Taken out of the cellar in the edit dialog, it leaves the page at once.
    await waiting.getByRole('button', { name: 'Edit Unopened Port Charlotte' }).click();
    const dialog = session.page.getByRole('dialog', { name: 'Edit entry' });
    await dialog.getByRole('checkbox', { name: 'In cellar' }).uncheck();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await waiting.getByRole('article').waitFor({ state: 'detached' });
    await expect.poll(() => cardNames(ready)).toEqual(['Cask 55']);
  });
});
