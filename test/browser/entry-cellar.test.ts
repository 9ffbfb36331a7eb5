import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { jpeg } from '../helpers/images.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { scrollWidth, smallTargets } from './phone-checks.ts';
import { loadedWidth, seedEntry } from './vault-seed.ts';

/*
 * An entry's bottles and tastings, and its drinking window, on a phone (390 px): a cellar
 * keeper adds six bottles in two places, opens one and tastes it, sets the entry's rating from
 * the tasting, opens the last bottle; someone else who may see the entry reads its tastings and
 * sees no bottle.
 */

const PHONE = { width: 390, height: 844 };

const people = peopleInBrowsers([
  { username: 'cora', password: 'cora-password-12', fullName: 'Cora Cave' },
  { username: 'gus', password: 'gus-password-123', fullName: 'Gus Guest' },
]);

const openAs = (username: string, path: string) => people.openAs(username, path, PHONE);

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });
const note = (page: Page, message: string) =>
  page.locator('.note--success', { hasText: message }).waitFor();

/** A place of cora's, made through the API (the cellar screen makes them in the app). */
async function place(page: Page, name: string, parentId?: number): Promise<number> {
  const response = await page.request.post('/api/cellar/places', {
    data: parentId ? { name, parentId } : { name },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { place: { id: number } }).place.id;
}

/** What a phone must hold to: nothing sideways, every target a finger's size, no axe finding. */
async function phoneChecks(page: Page) {
  expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
  expect(await smallTargets(page)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
}

/** Adds a bottle line from the entry's dialog (its form takes the dialog's place). */
async function addBottles(
  page: Page,
  fields: { quantity: string; vintage: string; place: string; price?: string },
) {
  await page
    .getByRole('dialog', { name: 'Bottles and tastings' })
    .getByRole('button', { name: 'Add bottles' })
    .click();
  const form = page.getByRole('dialog', { name: 'Add bottles' });
  await form.getByLabel('Quantity').fill(fields.quantity);
  await form.getByLabel('Vintage').fill(fields.vintage);
  await form.getByLabel('Place').selectOption({ label: fields.place });
  if (fields.price) {
    await form.getByLabel('Price of one bottle').fill(fields.price);
    await form.getByLabel('Currency').fill('eur');
  }
  await form.getByRole('button', { name: 'Add bottles' }).click();
  await page.getByRole('dialog', { name: 'Bottles and tastings' }).waitFor();
}

describe("an entry's cellar on a phone", () => {
  it("sets the drinking window in the entry's form, shows it on the card and clears it", async () => {
    await seedEntry(people.server, 'cora', {
      name: 'Riesling Kabinett',
      type: 'WINE',
      subtype: 'Riesling',
    });
    const page = await openAs('cora', '/wine');
    const entry = card(page, 'Riesling Kabinett');
    await entry.getByRole('button', { name: 'Edit Riesling Kabinett' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit entry' });
    const window = dialog.getByRole('group', { name: 'Drinking window' });
    await window.getByLabel('From year').fill('2026');
    await window.getByLabel('Until year').fill('2032');
    await phoneChecks(page);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await note(page, 'Beverage updated');
    await entry.getByText('Drink 2026–2032').waitFor();

    await entry.getByRole('button', { name: 'Edit Riesling Kabinett' }).click();
    expect(await window.getByLabel('From year').inputValue()).toBe('2026');
    await window.getByLabel('Until year').fill('');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await entry.getByText('Drink from 2026').waitFor();
    // Kept by the vault: a fresh page shows the same.
    await page.reload();
    await card(page, 'Riesling Kabinett').getByText('Drink from 2026').waitFor();
  });

  it('adds six bottles in two places, opens one with a tasting and a photo, and the last', async () => {
    await seedEntry(people.server, 'cora', {
      name: 'Château Musar',
      type: 'WINE',
      subtype: 'Cabernet Sauvignon',
      rating: 3,
    });
    const page = await openAs('cora', '/wine');
    const basement = await place(page, 'Basement');
    await place(page, 'Rack A', basement);
    await place(page, 'Kitchen fridge');

    const entry = card(page, 'Château Musar');
    await entry.getByRole('button', { name: 'Bottles and tastings of Château Musar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bottles and tastings' });
    await dialog.getByText('No bottles yet.').waitFor();
    await addBottles(page, {
      quantity: '4',
      vintage: '2018',
      place: 'Basement › Rack A',
      price: '24.50',
    });
    await addBottles(page, { quantity: '2', vintage: '2019', place: 'Kitchen fridge' });
    // The rack's line, whatever its quantity.
    const rack = dialog.getByRole('listitem', { name: /^\d+ × 750 ml · 2018, Basement › Rack A$/ });
    await dialog.getByRole('listitem', { name: '4 × 750 ml · 2018, Basement › Rack A' }).waitFor();
    expect(await rack.textContent()).toContain('€24.50 a bottle');
    await dialog.getByRole('listitem', { name: '2 × 750 ml · 2019, Kitchen fridge' }).waitFor();
    await dialog.getByText('6 bottles', { exact: true }).waitFor();
    await phoneChecks(page);
    // The card counts them, and adding bottles put the entry in the cellar.
    await entry.getByText('6 bottles', { exact: true }).waitFor();
    await entry.getByText('In cellar', { exact: true }).waitFor();

    // Open one of the rack's and taste it, with a photo, in the same dialog.
    await rack.getByRole('button', { name: /^Open a bottle/ }).click();
    const opening = page.getByRole('dialog', { name: 'Open a bottle' });
    await opening.getByText('One bottle of 4 × 750 ml · 2018 · Basement › Rack A').waitFor();
    expect(await opening.getByRole('group', { name: 'Keep it in the cellar?' }).count()).toBe(0);
    await opening.getByRole('radio', { name: '4 out of 5' }).check();
    await opening.getByLabel('Tasting notes').fill('Cassis and cedar, still young.');
    await opening.getByLabel('Photo', { exact: true }).setInputFiles({
      name: 'glass.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg(320, 240),
    });
    await phoneChecks(page);
    await opening.getByRole('button', { name: 'Open the bottle' }).click();
    await note(page, 'Bottle opened');
    await dialog.getByRole('listitem', { name: '3 × 750 ml · 2018, Basement › Rack A' }).waitFor();
    await dialog.getByText('5 bottles', { exact: true }).waitFor();
    const tasting = dialog.getByRole('listitem', { name: /^Tasting of / }).first();
    await tasting.getByText('Cassis and cedar, still young.').waitFor();
    expect(await tasting.getByRole('img', { name: 'Rated 4 out of 5' }).count()).toBe(1);
    expect(await tasting.textContent()).toContain('Opened a bottle (2018)');
    expect(await loadedWidth(tasting.getByRole('img', { name: /^Photo of the tasting/ }))).toBe(
      320,
    );
    await entry.getByText('5 bottles', { exact: true }).waitFor();

    // The entry's rating stays 3 until its owner takes the tasting's.
    expect(await entry.getByRole('img', { name: 'Rated 3 out of 5' }).count()).toBe(1);
    await tasting.getByRole('button', { name: /^Use this rating/ }).click();
    await note(page, 'Rating set to 4 out of 5');
    await entry.getByRole('img', { name: 'Rated 4 out of 5' }).waitFor();
    await tasting.getByRole('button', { name: /^Use this rating/ }).waitFor({ state: 'detached' });

    // A tasting without a bottle comes first (newest first).
    await dialog.getByRole('button', { name: 'Log a tasting' }).click();
    const logging = page.getByRole('dialog', { name: 'Log a tasting' });
    await logging.getByRole('radio', { name: '5 out of 5' }).check();
    await logging.getByLabel('Tasting notes').fill('Opened up beautifully on day two.');
    await logging.getByRole('button', { name: 'Log tasting' }).click();
    const tastings = dialog.getByRole('listitem', { name: /^Tasting of / });
    await expect.poll(() => tastings.count()).toBe(2);
    expect(await tastings.first().textContent()).toContain('Opened up beautifully on day two.');
    expect(await tastings.nth(1).textContent()).toContain('Cassis and cedar');

    // Down to the last bottle: the rack's taken off, the fridge's changed to one.
    await rack.getByRole('button', { name: /^Delete bottles/ }).click();
    await rack.getByRole('button', { name: 'Yes, delete' }).click();
    await rack.waitFor({ state: 'detached' });
    const fridge = dialog.getByRole('listitem', { name: '2 × 750 ml · 2019, Kitchen fridge' });
    await fridge.getByRole('button', { name: /^Change bottles/ }).click();
    const changing = page.getByRole('dialog', { name: 'Change bottles' });
    await changing.getByLabel('Quantity').fill('1');
    await changing.getByRole('button', { name: 'Save bottles' }).click();
    const last = dialog.getByRole('listitem', { name: '1 × 750 ml · 2019, Kitchen fridge' });
    await last.getByRole('button', { name: /^Open a bottle/ }).click();
    const question = opening.getByRole('group', { name: 'Keep it in the cellar?' });
    await question.getByText('This is the last bottle of Château Musar.').waitFor();
    expect(await question.getByRole('radio', { name: 'Keep it in the cellar' }).isChecked()).toBe(
      true,
    );
    await phoneChecks(page);
    await question.getByRole('radio', { name: 'Take it out of the cellar' }).check();
    await opening.getByRole('button', { name: 'Open the bottle' }).click();
    await dialog.getByText('No bottles yet.').waitFor();
    // Nothing said: the bottle was opened without a tasting.
    expect(await tastings.count()).toBe(2);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await entry.getByText('In cellar', { exact: true }).waitFor({ state: 'detached' });
    expect(await entry.getByText(/bottles?$/).count()).toBe(0);
  });

  it('shows the tastings to someone else who may see the entry, and no bottle', async () => {
    const { id } = await seedEntry(people.server, 'cora', {
      name: 'Barolo Cannubi',
      type: 'WINE',
      subtype: 'Nebbiolo',
      rating: 4,
    });
    const owner = await openAs('cora', '/wine');
    const added = await owner.request.post(`/api/beverages/${id}/bottles`, {
      data: { quantity: 3, vintage: 2016 },
    });
    expect(added.status()).toBe(201);
    const tasted = await owner.request.post(`/api/beverages/${id}/tastings`, {
      data: { tastedOn: '2026-02-14', rating: 5, notes: 'Roses and tar.' },
    });
    expect(tasted.status()).toBe(201);

    const page = await openAs('gus', '/users/cora');
    const entry = card(page, 'Barolo Cannubi');
    await entry.waitFor();
    expect(await entry.textContent()).not.toContain('bottle');
    expect(await entry.getByRole('button', { name: /^Bottles and tastings/ }).count()).toBe(0);
    await entry.getByRole('button', { name: 'Tastings of Barolo Cannubi' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tastings' });
    const tasting = dialog.getByRole('listitem', { name: /^Tasting of / });
    await tasting.getByText('Roses and tar.').waitFor();
    expect(await tasting.getByRole('img', { name: 'Rated 5 out of 5' }).count()).toBe(1);
    expect(await dialog.getByRole('heading', { name: 'Bottles' }).count()).toBe(0);
    expect(await dialog.getByRole('button').allTextContents()).toEqual(['']);
    await phoneChecks(page);
    // The vault says the same: the bottles are the owner's alone.
    expect((await page.request.get(`/api/beverages/${id}/bottles`)).status()).toBe(404);
  });
});
