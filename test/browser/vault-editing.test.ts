import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { headingText } from '../helpers/browser.ts';
import { jpeg } from '../helpers/images.ts';
import {
  loadedWidth,
  recordForms,
  seedEntry,
  sentForms,
  watchBeverageRequests,
} from './vault-seed.ts';

const people = peopleInBrowsers([
  { username: 'juniper', password: 'juniper-password-1', fullName: 'Juniper Still' },
]);

const panelList = (page: Page, type: string, list: 'Tried' | 'To try') =>
  page.getByRole('region', { name: type, exact: true }).getByRole('region', { name: list });

const card = (scope: Page | Locator, name: string) =>
  scope.getByRole('article', { name, exact: true });

async function expectNote(page: Page, message: string) {
  await page.locator('.note--success', { hasText: message }).waitFor();
}

const editDialog = (page: Page) => page.getByRole('dialog', { name: 'Edit entry' });

describe('editing entries', () => {
  it('edits an entry from its card and moves it to the list it now belongs to', async () => {
    await seedEntry(people.server, 'juniper', {
      name: 'Old Fitzgerald',
      subtype: 'Bourbon',
      makerName: 'Heaven Hill',
      rating: 4,
      notes: 'Wheated.',
    });
    const page = await people.openAs('juniper', '/', { prepare: recordForms });
    const requests = watchBeverageRequests(page);

    // A click on the card itself opens the editor.
    const original = card(panelList(page, 'Whiskey', 'Tried'), 'Old Fitzgerald');
    await original.getByText('Wheated.').click();
    const dialog = editDialog(page);
    await dialog.waitFor();
    const name = dialog.getByLabel('Name', { exact: true });
    expect(await name.inputValue()).toBe('Old Fitzgerald');
    expect(await dialog.getByLabel('Subtype').inputValue()).toBe('Bourbon');
    expect(await dialog.getByLabel('Distiller').inputValue()).toBe('Heaven Hill');
    expect(await dialog.getByRole('slider', { name: 'Rating' }).inputValue()).toBe('4');
    expect(await dialog.getByLabel('Notes').inputValue()).toBe('Wheated.');
    await expect.poll(() => name.and(page.locator(':focus')).count()).toBe(1);

    // The same rules as the form: a type change resets name, subtype and maker.
    await dialog.getByLabel('Type', { exact: true }).selectOption('BEER');
    expect(await name.inputValue()).toBe('');
    expect(await dialog.getByLabel('Subtype').inputValue()).toBe('Lager');
    expect(await dialog.getByLabel('Brewing company').inputValue()).toBe('');
    await name.fill('Fitz Barrel Stout');
    await dialog.getByLabel('Subtype').selectOption('Stout');
    await dialog.getByLabel('Brewing company').fill('Heaven Hill Brewing');
    await dialog.getByLabel('Notes').fill('');
    const slider = dialog.getByRole('slider', { name: 'Rating' });
    await slider.focus();
    await slider.press('End');
    // Only what the save causes counts (the dashboard's lists may have loaded after the layout).
    requests.clear();
    await dialog.getByRole('button', { name: 'Save changes' }).click();

    await expectNote(page, 'Beverage updated');
    await dialog.waitFor({ state: 'detached' });
    const moved = card(panelList(page, 'Beer', 'Tried'), 'Fitz Barrel Stout');
    await moved.waitFor();
    expect(await moved.textContent()).toContain('Brewing company: Heaven Hill Brewing');
    expect(await moved.getByRole('img', { name: 'Rated 5 out of 5' }).count()).toBe(1);
    expect(await moved.textContent()).not.toContain('Wheated.');
    expect(await panelList(page, 'Whiskey', 'Tried').textContent()).toContain(
      'No entries recorded yet.',
    );
    // In place: nothing was fetched again; the emptied notes were sent to clear them.
    expect(requests.of('GET')).toHaveLength(0);
    const [sent] = await sentForms(page);
    expect(sent?.method).toBe('PATCH');
    expect(sent?.fields).toContain('notes');
  });

  it('replaces and removes the photo of an entry', async () => {
    await seedEntry(
      people.server,
      'juniper',
      { name: 'Hazy Jane', type: 'BEER', subtype: 'IPA' },
      await jpeg(300, 400),
    );
    const page = await people.openAs('juniper', '/beer');
    const entry = card(page.getByRole('region', { name: 'Tried' }), 'Hazy Jane');
    const thumb = entry.getByRole('button', { name: 'View photo of Hazy Jane' }).locator('img');
    const before = await thumb.getAttribute('src');
    expect(await loadedWidth(thumb)).toBe(300);

    await entry.getByRole('button', { name: 'Edit Hazy Jane' }).click();
    let dialog = editDialog(page);
    await dialog.getByLabel('Replace photo').setInputFiles({
      name: 'new.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg(500, 350),
    });
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expectNote(page, 'Beverage updated');
    await expect.poll(() => thumb.getAttribute('src')).not.toBe(before);
    expect(await loadedWidth(thumb)).toBe(500);

    await entry.getByRole('button', { name: 'Edit Hazy Jane' }).click();
    dialog = editDialog(page);
    await dialog.getByRole('button', { name: 'Remove photo' }).click();
    expect(await dialog.getByText('The photo will be removed when you save.').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await entry
      .getByRole('button', { name: 'View photo of Hazy Jane' })
      .waitFor({ state: 'detached' });
    expect(await entry.locator('img').count()).toBe(0);
  });

  it('marks a to-try entry as tried and moves a tried one to to-try, with their notes', async () => {
    await seedEntry(people.server, 'juniper', {
      name: 'Barolo Cannubi',
      type: 'WINE',
      subtype: 'Nebbiolo',
      status: 'TO_TRY',
    });
    const page = await people.openAs('juniper', '/', { prepare: recordForms });
    const toTry = panelList(page, 'Wine', 'To try');
    const tried = panelList(page, 'Wine', 'Tried');

    const waiting = card(toTry, 'Barolo Cannubi');
    await waiting.getByText('Pending').waitFor();
    await waiting.getByRole('button', { name: 'Mark as tried' }).click();
    await expectNote(page, 'Marked as tried');
    const done = card(tried, 'Barolo Cannubi');
    await done.waitFor();
    expect(await done.getByRole('img', { name: 'Rated 3 out of 5' }).count()).toBe(1);
    expect(await card(toTry, 'Barolo Cannubi').count()).toBe(0);
    expect(await toTry.getByText('No entries recorded yet.').count()).toBe(1);

    await done.getByRole('button', { name: 'Move to to-try' }).click();
    await expectNote(page, 'Moved to try list');
    await card(toTry, 'Barolo Cannubi').getByText('Pending').waitFor();
    expect(await card(tried, 'Barolo Cannubi').count()).toBe(0);

    // Both were status-only updates.
    const sent = await sentForms(page);
    expect(sent.map((form) => [form.method, form.fields])).toEqual([
      ['PATCH', ['status']],
      ['PATCH', ['status']],
    ]);

    // The edit dialog offers the same action and keeps the form in step with it.
    await card(toTry, 'Barolo Cannubi')
      .getByRole('button', { name: 'Edit Barolo Cannubi' })
      .click();
    const dialog = editDialog(page);
    expect(await dialog.getByRole('slider', { name: 'Rating' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Mark as tried' }).click();
    await expectNote(page, 'Marked as tried');
    await dialog.getByRole('button', { name: 'Move to to-try' }).waitFor();
    expect(await dialog.getByRole('radio', { name: 'Tried' }).isChecked()).toBe(true);
    expect(await dialog.getByRole('slider', { name: 'Rating' }).inputValue()).toBe('3');
    await card(tried, 'Barolo Cannubi').waitFor();
  });

  it('opens the full-size photo and closes it with Escape', async () => {
    await seedEntry(
      people.server,
      'juniper',
      { name: 'Ardbeg Ten', subtype: 'Scotch', makerName: 'Ardbeg' },
      await jpeg(1200, 900),
    );
    const page = await people.openAs('juniper', '/whiskey');
    const thumb = page.getByRole('button', { name: 'View photo of Ardbeg Ten' });
    await thumb.click();

    const preview = page.getByRole('dialog', { name: 'Ardbeg Ten' });
    await preview.waitFor();
    const image = preview.getByRole('img', { name: 'Photo of Ardbeg Ten' });
    expect(await loadedWidth(image)).toBe(1200);
    const box = await image.boundingBox();
    expect(box!.width).toBeGreaterThan(400);
    expect(await page.getByRole('dialog', { name: 'Edit entry' }).count()).toBe(0);

    await page.keyboard.press('Escape');
    await preview.waitFor({ state: 'detached' });
    await expect.poll(() => thumb.and(page.locator(':focus')).count()).toBe(1);
  });

  it('deletes an entry after a confirmation, and says so when deleting fails', async () => {
    await seedEntry(people.server, 'juniper', {
      name: 'Corona Extra',
      type: 'BEER',
      subtype: 'Lager',
    });
    await seedEntry(people.server, 'juniper', { name: 'Guinness', type: 'BEER', subtype: 'Stout' });
    const page = await people.openAs('juniper', '/beer');
    const tried = page.getByRole('region', { name: 'Tried' });

    await card(tried, 'Corona Extra').getByRole('button', { name: 'Edit Corona Extra' }).click();
    const dialog = editDialog(page);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    expect(await dialog.textContent()).toContain('Delete “Corona Extra”? This cannot be undone.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card(tried, 'Corona Extra').waitFor({ state: 'detached' });
    const left = await page.request.get('/api/beverages?type=BEER');
    const names = ((await left.json()) as { beverages: { name: string }[] }).beverages.map(
      (b) => b.name,
    );
    expect(names).not.toContain('Corona Extra');
    expect(names).toContain('Guinness');

    // The server refuses: the red banner says so and the entry stays.
    await page.route('**/api/beverages/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, json: { message: 'Disk on fire' } })
        : route.continue(),
    );
    await card(tried, 'Guinness').getByRole('button', { name: 'Edit Guinness' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'Failed to delete beverage' });
    await banner.waitFor();
    expect(await banner.textContent()).toBe('Failed to delete beverage');
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await card(tried, 'Guinness').count()).toBe(1);
  });
});

describe('entries of other people', () => {
  it("shows another user's entries as View only to a plain user", async () => {
    await seedEntry(people.server, people.server.adminUsername, {
      name: 'Admin’s Pappy',
      subtype: 'Bourbon',
      rating: 5,
    });
    const page = await people.openAs('juniper', `/users/${people.server.adminUsername}`);
    expect(await headingText(page)).toBe(people.server.adminUsername);

    const entry = card(page, 'Admin’s Pappy');
    await entry.waitFor();
    expect(await entry.getByText('View only').count()).toBe(1);
    // Nothing to change it with: its only buttons are the conversation's, Cheer and Comments.
    const buttons = await entry
      .getByRole('button')
      .evaluateAll((all) =>
        all.map((button) => button.getAttribute('aria-label') ?? button.textContent),
      );
    expect(buttons.map((name) => name?.split(':')[0])).toEqual(['Cheer', 'Comments']);
    expect(await entry.textContent()).toContain('Logged by Vault Admin');
    await entry.getByText('Admin’s Pappy').click();
    expect(await editDialog(page).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Back to following' }).count()).toBe(1);
  });

  it("shows a plain user's entries read-only to an admin on their profile", async () => {
    await seedEntry(people.server, 'juniper', { name: 'Juniper’s Rye', subtype: 'Rye', rating: 2 });
    await seedEntry(people.server, 'juniper', { name: 'Juniper’s Gin Cask', subtype: 'Blended' });
    const page = await people.openAs('admin', '/users/juniper');
    const entries = page.getByRole('article');
    await card(page, 'Juniper’s Rye').waitFor();
    const count = await entries.count();
    expect(count).toBeGreaterThanOrEqual(2);
    expect(await entries.getByText('View only').count()).toBe(count);
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(
      await page.getByRole('button', { name: /^(Move to to-try|Mark as tried)$/ }).count(),
    ).toBe(0);
    await card(page, 'Juniper’s Rye').getByText('Juniper’s Rye').click();
    expect(await editDialog(page).count()).toBe(0);
  });

  it('keeps an entry editable by its owner on their own profile', async () => {
    await seedEntry(people.server, 'juniper', {
      name: 'Juniper’s Porter',
      subtype: 'Porter',
      type: 'BEER',
    });
    const page = await people.openAs('juniper', '/users/juniper');
    const entry = card(page, 'Juniper’s Porter');
    await entry.waitFor();
    expect(await entry.getByText('View only').count()).toBe(0);
    await entry.getByRole('button', { name: 'Edit Juniper’s Porter' }).click();
    await editDialog(page).waitFor();
  });
});
