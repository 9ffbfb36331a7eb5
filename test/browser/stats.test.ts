import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { insertBottle, insertBottleEvent } from '../helpers/cellar-rows.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';

/*
 * /stats and /stats/{year} in a real browser: the figures, a chart and its table, the type
 * filter, the way to a year in review and what it shows, and both pages at 390 px wide.
 */

const people = peopleInBrowsers([['stella', 'Stella Stats']]);

const THIS_YEAR = new Date().getFullYear();
const LAST_YEAR = THIS_YEAR - 1;

/** Entries of stella's, logged at the given instants (written straight into the database). */
async function seed() {
  const userId = people.userId('stella');
  const db = people.server.ctx.database.database;
  const insert = db.prepare(
    `INSERT INTO beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?)`,
  );
  const at = (month: number, day: number) => Date.UTC(LAST_YEAR, month, day, 12);
  const rows: [string, string, string, string, number, string, number, number][] = [
    ['WHISKEY', 'January Bourbon', 'Bourbon', 'Buffalo Trace', 4, 'TRIED', 1, at(0, 5)],
    ['WHISKEY', 'Spring Rye', 'Rye', 'Buffalo Trace', 3, 'TRIED', 0, at(3, 2)],
    ['WINE', 'Summer Merlot', 'Merlot', 'Château Pétrus', 5, 'TRIED', 1, at(6, 14)],
    ['BEER', 'Autumn IPA', 'IPA', 'Hill Farmstead', 2, 'TRIED', 0, at(9, 9)],
    ['BEER', 'December Stout', 'Stout', 'Hill Farmstead', 0, 'TO_TRY', 0, at(11, 20)],
  ];
  for (const [type, name, subtype, maker, rating, status, cellar, time] of rows) {
    await insert.run(userId, type, name, subtype, maker, rating, status, cellar, time, time);
  }
  const now = Date.now();
  await insert.run(userId, 'WINE', 'Tonight’s Syrah', 'Syrah', '', 4, 'TRIED', 0, now, now);
  // The cellar: two bottles of the Merlot at 30 EUR each (one opened just now) beside the
  // Bourbon, in the cellar without bottle lines.
  const merlot = {
    id: Number(
      await db.prepare("SELECT id FROM beverages WHERE name = 'Summer Merlot'").pluck().get(),
    ),
    userId,
  };
  await insertBottle(db, merlot, { quantity: 2, priceMinor: 3000, currency: 'EUR' });
  await insertBottleEvent(db, { userId, beverageId: merlot.id, kind: 'ADDED', change: 3, at: now });
  await insertBottleEvent(db, {
    userId,
    beverageId: merlot.id,
    kind: 'OPENED',
    change: -1,
    at: now,
  });
}

beforeAll(async () => {
  await seed();
});

const figure = (page: Page, name: string) => page.getByRole('figure', { name, exact: true });
const figureValue = (page: Page, term: string) =>
  page
    .locator('.stats-figures__item')
    .filter({ has: page.getByText(term, { exact: true }) })
    .locator('dd');

const scrollWidth = (page: Page) =>
  page.evaluate('document.scrollingElement.scrollWidth') as Promise<number>;

describe('the Stats page', () => {
  it("is reached from the navigation's 'Stats' item and shows the user's figures", async () => {
    const page = await people.openAs('stella', '/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Stats' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Stats' }).waitFor();
    expect(await figureValue(page, 'Entries').textContent()).toBe('6');
    expect(await figureValue(page, 'Tried').textContent()).toBe('5');
    expect(await figureValue(page, 'To try').textContent()).toBe('1');
    expect(await figureValue(page, 'In cellar').textContent()).toBe('2');
    expect(await figureValue(page, 'Average rating').textContent()).toBe('3.6');
    const link = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Stats' });
    expect(await link.getAttribute('aria-current')).toBe('page');
  });

  it("gives every chart a spoken label and a table behind 'Show as table'", async () => {
    const page = await people.openAs('stella', '/stats');
    const ratings = figure(page, 'Ratings of tried entries');
    const image = ratings.getByRole('img');
    expect(await image.getAttribute('aria-label')).toBe(
      'Ratings of tried entries. 0 stars: 0; 1 star: 0; 2 stars: 1; 3 stars: 1; 4 stars: 2; 5 stars: 1.',
    );
    expect(await ratings.getByRole('table').count()).toBe(0);

    await ratings.getByRole('button', { name: 'Show as table' }).click();
    const table = ratings.getByRole('table', { name: 'Ratings of tried entries' });
    await table.waitFor();
    expect(await table.getByRole('row', { name: '4 stars 2' }).count()).toBe(1);
    expect(await ratings.getByRole('img').count()).toBe(0);
    await ratings.getByRole('button', { name: 'Show as chart' }).click();
    await ratings.getByRole('img').waitFor();

    const makers = figure(page, 'Top makers');
    await makers.getByRole('button', { name: 'Show as table' }).click();
    const rows = await makers.getByRole('row').allTextContents();
    expect(rows).toEqual(['MakerEntries', 'Buffalo Trace2', 'Hill Farmstead2', 'Château Pétrus1']);
  });

  it('narrows every figure to one type with the type filter', async () => {
    const page = await people.openAs('stella', '/stats');
    await page
      .getByRole('group', { name: 'Show figures for' })
      .getByRole('button', { name: 'Beer' })
      .click();
    expect(await page.getByRole('button', { name: 'Beer', pressed: true }).count()).toBe(1);
    expect(await figureValue(page, 'Entries').textContent()).toBe('2');
    expect(await figureValue(page, 'To try').textContent()).toBe('1');
    const subtypes = figure(page, 'Top subtypes').getByRole('img');
    expect(await subtypes.getAttribute('aria-label')).toBe('Top subtypes. IPA: 1; Stout: 1.');
  });
});

describe('the cellar on the Stats page', () => {
  it('shows bottles opened, the cellar over time and its value by type', async () => {
    const page = await people.openAs('stella', '/stats');
    const opened = figure(page, 'Bottles opened in the last 12 months').getByRole('img');
    // The current month is the last: one bottle opened, none before.
    const spoken = (await opened.getAttribute('aria-label'))!;
    expect(spoken).toMatch(/: 1\.$/);
    expect(spoken.match(/: 0[;.]/g)).toHaveLength(11);
    const size = figure(page, "Bottles in the cellar at each month's end").getByRole('img');
    // Two bottles of the Merlot and the Bourbon, in the cellar without bottle lines.
    expect(await size.getAttribute('aria-label')).toMatch(/: 3\.$/);
    const value = figure(page, 'Cellar value by type').getByRole('table');
    expect(await value.getByRole('row').allTextContents()).toEqual([
      'TypeCurrencyValue',
      'WineEUR€60.00',
    ]);
  });
});

describe('a year in review', () => {
  it('is one link away and names the favourites, the first and the last entry of the year', async () => {
    const page = await people.openAs('stella', '/stats');
    await page
      .getByRole('navigation', { name: 'Year in review' })
      .getByRole('link', { name: String(LAST_YEAR) })
      .click();
    await page.getByRole('heading', { level: 1, name: `${LAST_YEAR} in review` }).waitFor();
    expect(await figureValue(page, 'Entries').textContent()).toBe('5');
    const favourites = page.getByRole('region', { name: 'Favourites' }).getByRole('listitem');
    expect(await favourites.allTextContents()).toEqual([
      'Summer MerlotWine · Merlot · Château Pétrus · 5 stars',
      'January BourbonWhiskey · Bourbon · Buffalo Trace · 4 stars',
      'Spring RyeWhiskey · Rye · Buffalo Trace · 3 stars',
      'Autumn IPABeer · IPA · Hill Farmstead · 2 stars',
    ]);
    const moments = page.getByRole('region', { name: 'First and last of the year' });
    expect(await moments.textContent()).toContain('January Bourbon');
    expect(await moments.textContent()).toContain('December Stout');
    const months = figure(page, 'Month by month').getByRole('img');
    expect(await months.getAttribute('aria-label')).toContain('Jan: 1 (Whiskey 1, Wine 0, Beer 0)');
  });

  it('says so for a year with nothing logged, and the way back leads to Stats', async () => {
    const page = await people.openAs('stella', `/stats/${LAST_YEAR - 5}`);
    await page.getByText(`Nothing was logged in ${LAST_YEAR - 5}.`).waitFor();
    await page.getByRole('link', { name: 'Back to stats' }).click();
    await page.getByRole('heading', { level: 1, name: 'Stats' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/stats');
  });

  it('shows the server’s message for a year that is not one', async () => {
    const page = await people.openAs('stella', '/stats/next');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('The year must be four digits, such as 2025');
  });
});

describe('at 390 px wide', () => {
  it('neither statistics page scrolls sideways, charts and tables shown', async () => {
    const narrow = (p: Page) => p.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/stats', `/stats/${LAST_YEAR}`]) {
      const page = await people.openAs('stella', path, { prepare: narrow });
      await figure(page, 'Top makers').waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      const showTable = page.getByRole('button', { name: 'Show as table' });
      while ((await showTable.count()) > 0) await showTable.first().click();
      await figure(page, 'Top makers').getByRole('table').waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    }
  });
});

describe('accessibility', () => {
  // The charts are checked on every screen at both widths by test/browser/every-screen.test.ts; here the
  // tables behind 'Show as table', on a phone.
  it('axe finds no serious or critical violation in either page’s tables', async () => {
    for (const path of ['/stats', `/stats/${LAST_YEAR}`]) {
      const page = await people.openAs('stella', path, {
        prepare: (p) => p.setViewportSize({ width: 390, height: 900 }),
      });
      await figure(page, 'Top makers').waitFor();
      const showTable = page.getByRole('button', { name: 'Show as table' });
      while ((await showTable.count()) > 0) await showTable.first().click();
      await figure(page, 'Top makers').getByRole('table').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    }
  });
});
