import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { headingText, pathOf } from '../helpers/browser.ts';
import { jpeg } from '../helpers/images.ts';
import {
  loadedWidth,
  recordForms,
  seedEntry,
  sentForms,
  watchBeverageRequests,
} from './vault-seed.ts';

const people = peopleInBrowsers([
  { username: 'hazel', password: 'hazel-password-1', fullName: 'Hazel Barrel' },
  { username: 'rowan', password: 'rowan-password-1', fullName: 'Rowan Oak' },
]);

/** The 'Log a new beverage' form and its fields. */
function logForm(page: Page) {
  const form = page.getByRole('region', { name: 'Log a new beverage' });
  return {
    form,
    type: form.getByLabel('Type', { exact: true }),
    name: form.getByLabel('Name', { exact: true }),
    subtype: form.getByLabel('Subtype'),
    maker: (label: string) => form.getByLabel(label, { exact: true }),
    tried: form.getByRole('radio', { name: 'Tried' }),
    toTry: form.getByRole('radio', { name: 'To try' }),
    rating: form.getByRole('slider', { name: 'Rating' }),
    cellar: form.getByRole('checkbox', { name: 'In cellar' }),
    notes: form.getByLabel('Notes'),
    photo: form.getByLabel('Photo'),
    submit: form.getByRole('button', { name: 'Log beverage' }),
    error: form.getByRole('alert'),
  };
}

/** One list of a dashboard vault panel, e.g. Whiskey → To try. */
const panelList = (page: Page, type: string, list: 'Tried' | 'To try') =>
  page.getByRole('region', { name: type, exact: true }).getByRole('region', { name: list });

const card = (scope: Page | Locator, name: string) =>
  scope.getByRole('article', { name, exact: true });

/** The success note (a polite live region) shows `message`. */
async function expectNote(page: Page, message: string) {
  await page.locator('.note--success', { hasText: message }).waitFor();
}

/** Sets the slider with the keyboard, as a user would. */
async function setRating(slider: Locator, rating: number) {
  await slider.focus();
  await slider.press('Home');
  for (let i = 0; i < rating; i++) await slider.press('ArrowRight');
  expect(await slider.inputValue()).toBe(String(rating));
}

describe('logging a beverage', () => {
  it('logs an entry with a photo and shows it on the dashboard, its archive and the cellar', async () => {
    const page = await people.openAs('hazel', '/', { prepare: recordForms });
    const f = logForm(page);
    const requests = watchBeverageRequests(page);

    await f.type.selectOption('WINE');
    await f.name.fill('  Clos Rougeard Le Bourg  ');
    await f.subtype.selectOption('Pinot Noir');
    await f.maker('Winery').fill('Clos Rougeard');
    await setRating(f.rating, 5);
    await f.notes.fill('Violets, graphite and a very long finish.');
    await f.cellar.check();
    await f.photo.setInputFiles({
      name: 'bottle.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg(900, 1200),
    });
    // The chosen photo is previewed before it is sent.
    await expect
      .poll(() => f.form.locator('.photo-input__preview img').getAttribute('src'))
      .toMatch(/^blob:/);
    // Only what logging causes counts (the dashboard's lists may have loaded after the layout).
    requests.clear();
    await f.submit.click();

    await expectNote(page, 'Beverage logged successfully');
    expect(requests.of('POST')).toHaveLength(1);
    const [sent] = await sentForms(page);
    expect(sent?.url).toBe('/api/beverages');
    expect(sent?.fields.sort()).toEqual(
      [
        'inCellar',
        'makerName',
        'name',
        'notes',
        'photo',
        'rating',
        'status',
        'subtype',
        'type',
      ].sort(),
    );

    const onDashboard = card(panelList(page, 'Wine', 'Tried'), 'Clos Rougeard Le Bourg');
    await onDashboard.waitFor();
    expect(await onDashboard.textContent()).toContain('Winery: Clos Rougeard');
    expect(await onDashboard.textContent()).toContain('In cellar');
    expect(await onDashboard.getByRole('img', { name: 'Rated 5 out of 5' }).count()).toBe(1);
    expect(await loadedWidth(onDashboard.locator('img').first())).toBeGreaterThan(0);
    // Logging it added it in place: the lists were not fetched again.
    expect(requests.of('GET')).toHaveLength(0);

    await panelList(page, 'Wine', 'Tried').getByRole('link', { name: 'See all' }).click();
    expect(await headingText(page)).toBe('Wine Logs');
    expect(pathOf(page)).toBe('/wine');
    const tried = page.getByRole('region', { name: 'Tried' });
    const inArchive = card(tried, 'Clos Rougeard Le Bourg');
    expect(await loadedWidth(inArchive.locator('img').first())).toBeGreaterThan(0);
    await page
      .getByRole('region', { name: 'To try' })
      .getByText('No entries recorded yet.')
      .waitFor();

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Cellar' })
      .click();
    const ready = page.getByRole('region', { name: 'Ready to pour' });
    const inCellar = card(ready, 'Clos Rougeard Le Bourg');
    expect(await loadedWidth(inCellar.locator('img').first())).toBeGreaterThan(0);
    expect(await inCellar.textContent()).toContain('Wine');
    expect(await page.getByRole('region', { name: 'Waiting to be opened' }).count()).toBe(1);
  });

  it('starts with the defaults, resets on a type change and keeps type and cellar after a save', async () => {
    const page = await people.openAs('rowan', '/', { prepare: recordForms });
    const f = logForm(page);
    const requests = watchBeverageRequests(page);

    // An empty vault says so in every list, and the cellar is empty.
    for (const type of ['Whiskey', 'Wine', 'Beer']) {
      for (const list of ['Tried', 'To try'] as const) {
        await panelList(page, type, list).getByText('No entries recorded yet.').waitFor();
      }
    }
    expect(await f.type.inputValue()).toBe('WHISKEY');
    expect(await f.tried.isChecked()).toBe(true);
    expect(await f.rating.inputValue()).toBe('3');
    expect(await f.rating.isEnabled()).toBe(true);
    expect(await f.cellar.isChecked()).toBe(false);
    expect(await f.subtype.inputValue()).toBe('Bourbon');
    expect(await f.maker('Distiller').inputValue()).toBe('');

    await f.name.fill('Rittenhouse');
    await f.subtype.selectOption('Rye');
    await f.maker('Distiller').fill('Heaven Hill');
    await setRating(f.rating, 4);
    await f.type.selectOption('BEER');
    expect(await f.name.inputValue()).toBe('');
    expect(await f.subtype.inputValue()).toBe('Lager');
    expect(await f.maker('Brewing company').inputValue()).toBe('');
    expect(await f.form.getByLabel('Distiller').count()).toBe(0);
    expect(await f.rating.inputValue()).toBe('4');

    await f.type.selectOption('WINE');
    expect(await f.subtype.inputValue()).toBe('Cabernet Sauvignon');
    expect(await f.maker('Winery').count()).toBe(1);
    const groups = await f.subtype
      .locator('optgroup')
      .evaluateAll((els) => els.map((el) => el.getAttribute('label')));
    expect(groups).toEqual(['Red', 'White', 'Sparkling', 'Rosé', 'Rice Wine']);
    expect(await f.subtype.locator('optgroup[label="Rice Wine"] option').allTextContents()).toEqual(
      ['Sake'],
    );

    // Saved without maker or notes: neither is sent.
    await f.type.selectOption('BEER');
    await f.name.fill('Pliny the Elder');
    await f.subtype.selectOption('IPA');
    await f.cellar.check();
    await f.toTry.check();
    await f.submit.click();
    await expectNote(page, 'Beverage logged successfully');
    expect(requests.of('POST')).toHaveLength(1);
    const [sent] = await sentForms(page);
    expect(sent?.fields.sort()).toEqual(
      ['inCellar', 'name', 'rating', 'status', 'subtype', 'type'].sort(),
    );

    const saved = card(panelList(page, 'Beer', 'To try'), 'Pliny the Elder');
    await saved.waitFor();
    expect(await saved.getByText('Pending').count()).toBe(1);

    // The form starts afresh but keeps the type and the cellar choice.
    expect(await f.type.inputValue()).toBe('BEER');
    expect(await f.cellar.isChecked()).toBe(true);
    expect(await f.name.inputValue()).toBe('');
    expect(await f.subtype.inputValue()).toBe('Lager');
    expect(await f.maker('Brewing company').inputValue()).toBe('');
    expect(await f.tried.isChecked()).toBe(true);
    expect(await f.rating.inputValue()).toBe('3');
    expect(await f.notes.inputValue()).toBe('');
  });

  it('shows the rating as Pending and disabled while to-try, and restores 3 when tried again', async () => {
    const page = await people.openAs('hazel');
    const f = logForm(page);
    const ratingField = f.form.locator('.rating-field');

    await setRating(f.rating, 5);
    await f.toTry.check();
    expect(await f.rating.isDisabled()).toBe(true);
    expect(await f.rating.inputValue()).toBe('0');
    expect(await f.rating.getAttribute('aria-valuetext')).toBe('Pending');
    expect(await ratingField.getByText('Pending').isVisible()).toBe(true);

    await f.tried.check();
    expect(await f.rating.isEnabled()).toBe(true);
    expect(await f.rating.inputValue()).toBe('3');
    expect(await ratingField.getByText('Pending').count()).toBe(0);
    expect(await ratingField.getByRole('img', { name: 'Rated 3 out of 5' }).count()).toBe(1);
  });

  it("says 'Name is required' before sending anything, on create and on edit", async () => {
    await seedEntry(people.server, 'hazel', {
      name: 'Blanton’s Original',
      subtype: 'Bourbon',
      rating: 4,
    });
    const page = await people.openAs('hazel');
    const f = logForm(page);
    const requests = watchBeverageRequests(page);

    await f.submit.click();
    expect(await f.error.textContent()).toBe('Name is required');
    expect(await f.name.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => f.name.and(page.locator(':focus')).count()).toBe(1);
    await f.name.fill('   ');
    await f.submit.click();
    expect(await f.error.textContent()).toBe('Name is required');
    expect(requests.of('POST')).toHaveLength(0);

    // Typing a name clears the message.
    await f.name.fill('W');
    expect(await f.error.count()).toBe(0);

    await card(panelList(page, 'Whiskey', 'Tried'), 'Blanton’s Original')
      .getByRole('button', { name: 'Edit Blanton’s Original' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edit entry' });
    await dialog.getByLabel('Name').fill('  ');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('Name is required');
    expect(requests.of('PATCH')).toHaveLength(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(requests.all.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('refuses a file that is not an image before sending, and shows the server refusing a fake one', async () => {
    const page = await people.openAs('hazel');
    const f = logForm(page);
    const requests = watchBeverageRequests(page);

    await f.photo.setInputFiles({
      name: 'tasting-notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a photo'),
    });
    expect(await f.error.textContent()).toBe('The photo must be an image file');
    expect(await f.photo.inputValue()).toBe('');

    // Text dressed up as a JPEG gets past the browser; the server judges the content.
    await f.photo.setInputFiles({
      name: 'bottle.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('still not a photo'),
    });
    expect(await f.error.count()).toBe(0);
    await f.name.fill('Fake Photo Reserve');
    await f.submit.click();
    await f.error.waitFor();
    expect(await f.error.textContent()).toBe('The photo must be a JPEG, PNG, WebP or AVIF image');
    expect(requests.of('POST')).toHaveLength(1);
    expect(await f.name.inputValue()).toBe('Fake Photo Reserve');
    expect(await page.getByRole('article', { name: 'Fake Photo Reserve' }).count()).toBe(0);
  });
});
