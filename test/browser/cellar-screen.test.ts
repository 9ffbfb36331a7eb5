import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { insertBottle } from '../helpers/cellar-rows.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { scrollWidth, smallTargets } from './phone-checks.ts';
import { seedEntry } from './vault-seed.ts';

/*
 * The cellar screen beyond the 'In cellar' flag, on a phone (390 px): places made, renamed, moved
 * and deleted in the Places dialog; the cellar's figures and its bottles by place; the entries by
 * drinking window, judged by the server's clock, and the dashboard's count of bottles past their
 * window as the year turns.
 */

/** The server's clock: an hour before the new year of 2032, moved on by the window test. */
let clock = Date.UTC(2031, 11, 31, 23, 0);
const people = peopleInBrowsers(
  [
    ['pia', 'Pia Places'],
    ['vera', 'Vera Views'],
    ['will', 'Will Windows'],
    ['kay', 'Kay Keeper'],
    ['quinn', 'Quinn Quick'],
  ],
  { now: () => clock },
);

const PHONE = 390;
const phone = (page: Page) => page.setViewportSize({ width: PHONE, height: 844 });

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** Calls the vault's API with the page's session (as a script would: no Origin header). */
async function api(
  page: Page,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: { json?: unknown; form?: Record<string, string> },
): Promise<Answer> {
  const response = await page.context().request.fetch(`/api${path}`, {
    method,
    ...(body?.json !== undefined && { data: body.json }),
    ...(body?.form && { multipart: body.form }),
  });
  const text = await response.text();
  const answer = { status: response.status(), json: text ? JSON.parse(text) : undefined };
  if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
  return answer;
}

const addPlace = async (page: Page, name: string, parentId: number | null = null) =>
  (await api(page, 'POST', '/cellar/places', { json: { name, parentId } })).json.place.id as number;

const addBottles = (page: Page, entryId: number, json: Record<string, unknown>) =>
  api(page, 'POST', `/beverages/${entryId}/bottles`, { json });

const setWindow = (page: Page, entryId: number, from: string, until: string) =>
  api(page, 'PATCH', `/beverages/${entryId}`, { form: { drinkFrom: from, drinkUntil: until } });

const cardNames = (region: Locator) =>
  region.getByRole('article').getByRole('heading').allTextContents();

/** The text of each figure of the cellar, by its name. */
async function figures(page: Page): Promise<Record<string, string>> {
  const region = page.getByRole('region', { name: 'The cellar in figures' });
  await region.waitFor();
  const items = region.locator('.cellar-figures__item');
  const out: Record<string, string> = {};
  for (const item of await items.all()) {
    out[(await item.locator('dt').textContent()) ?? ''] = (await item.locator('dd').innerText())
      .replace(/\s+/g, ' ')
      .trim();
  }
  return out;
}

describe('places, on a phone', () => {
  it('are made, renamed, moved and deleted in the Places dialog; one holding bottles is refused', async () => {
    const claret = await seedEntry(people.server, 'pia', {
      name: 'House Claret',
      type: 'WINE',
      subtype: 'Merlot',
      inCellar: true,
    });
    const page = await people.openAs('pia', '/cellar', { prepare: phone });
    // Only the flag so far: the description's groups, and nothing of the rest but 'Places'.
    await page.getByRole('region', { name: 'Ready to pour' }).getByRole('article').waitFor();
    expect(await page.getByRole('region', { name: 'The cellar in figures' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Group by' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Places', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Places' });
    await dialog.getByText('No places yet.').waitFor();
    // 'Inside' keeps its choice from one place to the next (bins of one rack, one after another).
    const add = async (name: string, inside = 'Top level') => {
      const form = dialog.getByRole('form', { name: 'Add a place' });
      await form.getByLabel('Name').fill(name);
      const where = form.getByLabel('Inside');
      if ((await where.count()) > 0) await where.selectOption({ label: inside });
      await form.getByRole('button', { name: 'Add place' }).click();
      await dialog.getByRole('button', { name: `Rename ${name}`, exact: true }).waitFor();
    };
    await add('Basement');
    await add('Rack A', 'Basement');
    await add('Bin 3');
    await add('Kitchen fridge');
    await add('Spare shelf');

    // Renamed.
    await dialog.getByRole('button', { name: 'Rename Kitchen fridge' }).click();
    await dialog.getByLabel('New name for Kitchen fridge').fill('Kitchen');
    await dialog.getByRole('button', { name: 'Save name' }).click();
    await dialog.getByRole('button', { name: 'Rename Kitchen', exact: true }).waitFor();

    // Moved into Rack A: its path is now three deep.
    await dialog.getByRole('button', { name: 'Move Bin 3' }).click();
    const into = dialog.getByLabel('Move Bin 3 into');
    // Not into itself.
    expect(await into.locator('option').allTextContents()).not.toContain('Bin 3');
    await into.selectOption({ label: 'Basement › Rack A' });
    await dialog.getByRole('button', { name: 'Move here' }).click();
    await dialog.getByRole('button', { name: 'Move Bin 3' }).waitFor();
    const places = (await api(page, 'GET', '/cellar/places')).json.places as {
      id: number;
      name: string;
      path: string[];
    }[];
    expect(places.find((p) => p.name === 'Bin 3')?.path).toEqual(['Basement', 'Rack A', 'Bin 3']);
    // Nested in the list as it is in the cellar.
    const rackRow = dialog.getByRole('listitem').filter({ hasText: 'Rack A' }).last();
    expect(await rackRow.getByRole('button', { name: 'Delete Bin 3' }).count()).toBe(1);

    // A place holding a bottle cannot go; the server's reason is shown.
    const kitchen = places.find((p) => p.name === 'Kitchen')!;
    await addBottles(page, claret.id, { quantity: 2, placeId: kitchen.id });
    await dialog.getByRole('button', { name: 'Delete Kitchen', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Kitchen holds 2 bottles. Move them out before deleting it.',
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // The list was asked again: Kitchen holds the two bottles.
    const kitchenRow = dialog.getByRole('listitem').filter({ hasText: 'Kitchen' });
    await kitchenRow.getByText('2 bottles').waitFor();

    // An empty one goes.
    await dialog.getByRole('button', { name: 'Delete Spare shelf' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Rename Spare shelf' }).waitFor({ state: 'detached' });
    expect(await dialog.getByRole('button', { name: 'Rename Kitchen', exact: true }).count()).toBe(
      1,
    );

    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
    expect(await smallTargets(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe("the cellar's figures and its bottles by place, on a phone", () => {
  it('counts bottles, entries, litres and value per currency, and lists the bottles under their place', async () => {
    const leoville = await seedEntry(people.server, 'vera', {
      name: 'Léoville Las Cases',
      type: 'WINE',
      subtype: 'Merlot',
      status: 'TO_TRY',
    });
    const lagavulin = await seedEntry(people.server, 'vera', {
      name: 'Lagavulin 16',
      subtype: 'Scotch',
      inCellar: true,
    });
    const page = await people.openAs('vera', '/', { prepare: phone });
    const basement = await addPlace(page, 'Basement');
    const rack = await addPlace(page, 'Rack A', basement);
    const fridge = await addPlace(page, 'Kitchen fridge');
    await addBottles(page, leoville.id, {
      quantity: 4,
      vintage: 2015,
      placeId: rack,
      price: 80,
      currency: 'EUR',
    });
    await addBottles(page, leoville.id, {
      quantity: 2,
      vintage: 2016,
      placeId: fridge,
      price: 90,
      currency: 'EUR',
    });
    await addBottles(page, lagavulin.id, { quantity: 1, sizeMl: 700, price: 70, currency: 'USD' });

    await page.goto('/cellar');
    expect(await figures(page)).toEqual({
      Bottles: '7',
      Entries: '2',
      Litres: '5.2 l',
      Value: '€500.00 $70.00',
    });
    // The description's groups are still the first view: adding bottles put the wine in.
    const waiting = page.getByRole('region', { name: 'Waiting to be opened' });
    await expect.poll(() => cardNames(waiting)).toEqual(['Léoville Las Cases']);

    await page
      .getByRole('group', { name: 'Group by' })
      .getByRole('button', { name: 'Place' })
      .click();
    const place = (name: string) => page.getByRole('region', { name, exact: true });
    await place('Basement › Rack A').waitFor();
    expect(await place('Basement › Rack A').getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/Léoville Las Cases\s+4 × 750 ml · 2015 · Wine/),
    ]);
    expect(await place('Kitchen fridge').getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/Léoville Las Cases\s+2 × 750 ml · 2016 · Wine/),
    ]);
    expect(await place('No place').getByRole('listitem').allInnerTexts()).toEqual([
      expect.stringMatching(/Lagavulin 16\s+1 × 700 ml · Whiskey/),
    ]);
    expect(await place('Kitchen fridge').textContent()).toContain('2 bottles');

    // Narrowed by type, then by place (a place holds the places inside it).
    await page
      .getByRole('group', { name: 'Type' })
      .getByRole('button', { name: 'Whiskey' })
      .click();
    // The filtered list is fetched again: wait for its final state, not a moment of it.
    await place('Kitchen fridge').waitFor({ state: 'detached' });
    await place('No place').waitFor();
    await page.getByRole('group', { name: 'Type' }).getByRole('button', { name: 'All' }).click();
    await page.getByLabel('Place', { exact: true }).selectOption({ label: 'Basement' });
    await place('Kitchen fridge').waitFor({ state: 'detached' });
    await place('No place').waitFor({ state: 'detached' });
    await place('Basement › Rack A').waitFor();
    expect(await place('Basement › Rack A').count()).toBe(1);
    expect(new URL(page.url()).search).toBe(`?by=place&place=${basement}`);

    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
    expect(await smallTargets(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('drinking windows by the server’s clock', () => {
  it('moves an entry from Drink now to Past its window when the year passes its end, and the dashboard counts it', async () => {
    const riesling = await seedEntry(people.server, 'will', {
      name: 'Ready Riesling',
      type: 'WINE',
      subtype: 'Riesling',
      status: 'TO_TRY',
      inCellar: true,
    });
    const beaujolais = await seedEntry(people.server, 'will', {
      name: 'Old Beaujolais',
      type: 'WINE',
      subtype: 'Grenache',
      inCellar: true,
    });
    const barolo = await seedEntry(people.server, 'will', {
      name: 'Young Barolo',
      type: 'WINE',
      subtype: 'Nebbiolo',
      inCellar: true,
    });
    // Three bottles of the Riesling (the bottles' own routes are tested with the places above).
    await insertBottle(people.server.ctx.database.database, riesling, { quantity: 3 });
    let page = await people.openAs('will', '/', { prepare: phone });
    await setWindow(page, riesling.id, '2028', '2031');
    await setWindow(page, beaujolais.id, '', '2029');
    await setWindow(page, barolo.id, '2035', '');

    // 2031: the Riesling is to drink now, the Beaujolais (one bottle: the flag) is past.
    await page.reload();
    const notice = page.getByRole('link', { name: '1 bottle past its window' });
    await notice.waitFor();
    await notice.click();
    await page.getByRole('heading', { level: 1, name: 'Cellar' }).waitFor();
    const group = (name: string) => page.getByRole('region', { name, exact: true });
    await expect.poll(() => cardNames(group('Drink now'))).toEqual(['Ready Riesling']);
    await expect.poll(() => cardNames(group('Past its window'))).toEqual(['Old Beaujolais']);
    await expect.poll(() => cardNames(group('Not ready yet'))).toEqual(['Young Barolo']);
    expect(await group('Drink now').textContent()).toContain('3 bottles');
    expect(await group('Past its window').textContent()).toContain('1 bottle');
    // Narrowed to wine (all three are), the entries listed are counted: the same bottles.
    await page.getByRole('group', { name: 'Type' }).getByRole('button', { name: 'Wine' }).click();
    await page.waitForURL((url) => url.search === '?by=window&type=WINE');
    await expect
      .poll(() => group('Drink now').locator('.cellar-group__count').textContent())
      .toBe('3 bottles');
    await expect
      .poll(() => group('Past its window').locator('.cellar-group__count').textContent())
      .toBe('1 bottle');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
    expect(await seriousViolations(page)).toEqual([]);

    // Two hours later it is 2032: the Riesling's window has closed.
    clock += 2 * 60 * 60 * 1000;
    page = await people.openAs('will', '/', { prepare: phone });
    const later = page.getByRole('link', { name: '4 bottles past their window' });
    await later.waitFor();
    await later.click();
    await expect
      .poll(async () => (await cardNames(group('Past its window'))).sort())
      .toEqual(['Old Beaujolais', 'Ready Riesling']);
    await group('Drink now').getByText('Nothing to drink this year.').waitFor();
    expect(await group('Past its window').textContent()).toContain('4 bottles');
  });
});

describe("the last bottle opened with 'Keep it in the cellar'", () => {
  it('leaves no bottle past its window, on the cellar screen nor on the dashboard', async () => {
    const barolo = await seedEntry(people.server, 'kay', {
      name: 'Last Barolo',
      type: 'WINE',
      subtype: 'Nebbiolo',
      inCellar: true,
    });
    const page = await people.openAs('kay', '/', { prepare: phone });
    await setWindow(page, barolo.id, '', '2029');
    await addBottles(page, barolo.id, { quantity: 1 });

    await page.reload();
    await page.getByRole('link', { name: '1 bottle past its window' }).click();
    const past = page.getByRole('region', { name: 'Past its window', exact: true });
    const count = past.locator('.cellar-group__count');
    await expect.poll(() => count.textContent()).toBe('1 bottle');
    await past.getByRole('button', { name: 'Bottles and tastings of Last Barolo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bottles and tastings' });
    await dialog.getByRole('button', { name: /^Open a bottle/ }).click();
    const opening = page.getByRole('dialog', { name: 'Open a bottle' });
    const question = opening.getByRole('group', { name: 'Keep it in the cellar?' });
    expect(await question.getByRole('radio', { name: 'Keep it in the cellar' }).isChecked()).toBe(
      true,
    );
    await opening.getByRole('button', { name: 'Open the bottle' }).click();
    await dialog.getByText('No bottles yet.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Still 'In cellar', listed where its window puts it, holding no bottle.
    await expect.poll(() => cardNames(past)).toEqual(['Last Barolo']);
    await expect.poll(() => count.textContent()).toBe('0 bottles');
    // Narrowed to its type, the same.
    await page.getByRole('group', { name: 'Type' }).getByRole('button', { name: 'Wine' }).click();
    await page.waitForURL((url) => url.search === '?by=window&type=WINE');
    await expect.poll(() => cardNames(past)).toEqual(['Last Barolo']);
    await expect.poll(() => count.textContent()).toBe('0 bottles');
    // Back on the dashboard (the figures the dialog's change asked for again), then afresh.
    const pastLinks = page.getByRole('link', { name: /past (its|their) window/ });
    const settled = () => page.evaluate('new Promise((done) => requestAnimationFrame(done))');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await settled();
    expect(await pastLinks.count()).toBe(0);
    const figures = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/cellar');
    await page.reload();
    expect((await (await figures).json()).windows.PAST).toBe(0);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await settled();
    expect(await pastLinks.count()).toBe(0);
  });
});

describe('the cellar by drinking window, opened by its address', () => {
  it('asks for its three groups together with its figures, not after them, nor the two status groups', async () => {
    const rioja = await seedEntry(people.server, 'quinn', {
      name: 'Quick Rioja',
      type: 'WINE',
      subtype: 'Tempranillo',
      inCellar: true,
    });
    const page = await people.openAs('quinn', '/', { prepare: phone });
    await setWindow(page, rioja.id, '2025', '2040');

    // The figures are held back until the three groups have been asked for: a screen that waits
    // for them before asking never fills.
    const lists: string[] = [];
    let groupsAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => (groupsAsked = resolve));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname !== '/api/beverages' || !url.search.includes('cellar=true')) return;
      lists.push(url.search);
      if (lists.filter((query) => query.includes('window=')).length === 3) groupsAsked();
    });
    await page.route('**/api/cellar', async (route) => {
      await asked;
      await route.continue();
    });
    await page.goto('/cellar?by=window');
    const now = page.getByRole('region', { name: 'Drink now', exact: true });
    await expect.poll(() => cardNames(now)).toEqual(['Quick Rioja']);
    await expect.poll(() => now.locator('.cellar-group__count').textContent()).toBe('1 bottle');
    expect(lists.filter((query) => query.includes('status='))).toEqual([]);
  });
});
