import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { headingText } from '../helpers/browser.ts';
import { expectPending, peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { jpeg } from '../helpers/images.ts';
import { loadedWidth, seedEntry } from './vault-seed.ts';

/*
 * The activity feed and sharing with two people in two browsers: A logs an entry and B, who
 * follows A, sees it in /activity and adds it to their vault ('Load more' pages the feed); A
 * shares an entry from the edit dialog's Sharing panel, B adds it to to-try from Alerts (a
 * 'View only' card at the top of the list), A removes the share and it leaves B's vault; the
 * decline path; the refusals the panel makes before sending anything.
 */

const PEOPLE = [
  ['ash', 'Ash Cooper'],
  ['beech', 'Beech Malter'],
  ['larch', 'Larch Kiln'],
  ['rowan', 'Rowan Quiet'],
] as const;

const people = peopleInBrowsers(PEOPLE);
const { openAs, userId } = people;

/** A call to the API from a page signed in as `username`; resolves to the status. */
async function callAs(username: string, method: string, path: string, body?: unknown) {
  const page = await openAs(username, '/');
  return page.evaluate(
    async ({ method, path, body }) =>
      (
        await fetch(path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).status,
    { method, path, body },
  );
}

/** Background deliveries (feed items, notifications) are done. */
const delivered = () => people.server.ctx.outbox.idle();

const card = (scope: Page | Locator, name: string) =>
  scope.getByRole('article', { name, exact: true });
const panelList = (page: Page, type: string, list: 'Tried' | 'To try') =>
  page.getByRole('region', { name: type, exact: true }).getByRole('region', { name: list });
const editDialog = (page: Page) => page.getByRole('dialog', { name: 'Edit entry' });
const sharing = (page: Page) => editDialog(page).getByRole('region', { name: 'Sharing' });
const alertsButton = (page: Page) => page.getByRole('button', { name: /^Alerts, \d+ pending$/ });

/** Requests the page sends to share or unshare an entry. */
function watchShares(page: Page) {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.includes('/share')) {
      sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
    }
  });
  return sent;
}

/** Opens the edit dialog of one of the page's cards. */
async function openEditor(page: Page, name: string) {
  await page
    .getByRole('button', { name: `Edit ${name}`, exact: true })
    .first()
    .click();
  await editDialog(page).waitFor();
  await sharing(page).waitFor();
}

/** The search results of the Sharing panel. */
const results = (panel: Locator) => panel.getByRole('list', { name: 'Search results' });

/** In the Sharing panel: search, choose the person. */
async function chooseRecipient(page: Page, search: string, fullName: string) {
  const panel = sharing(page);
  await panel.getByLabel('Share with', { exact: true }).fill(search);
  await results(panel)
    .getByRole('button', { name: new RegExp(fullName) })
    .click();
}

describe('/activity', () => {
  it('says No recent activity from people you follow yet. to someone who follows nobody', async () => {
    const page = await openAs('rowan', '/activity');
    expect(await headingText(page)).toBe('Activity');
    await page
      .getByText('No recent activity from people you follow yet.', { exact: true })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it('A logs an entry, B who follows A sees it in /activity and adds it to their vault', async () => {
    // Logged before the follow: it does not flood B's feed.
    await seedEntry(people.server, 'ash', { name: 'Old Pulteney 12', subtype: 'Single Malt' });
    expect(await callAs('beech', 'POST', `/api/users/${userId('ash')}/follow`, {})).toBe(201);

    // A logs an entry with a photo from the dashboard.
    const ash = await openAs('ash', '/');
    const form = ash.getByRole('region', { name: 'Log a new beverage' });
    await form.getByLabel('Name', { exact: true }).fill('Oban 14');
    await form.getByLabel('Subtype').selectOption('Scotch');
    await form.getByLabel('Distiller', { exact: true }).fill('Oban Distillery');
    await form.getByLabel('Notes').fill('Sea salt and honey.');
    await form.getByLabel('Photo').setInputFiles({
      name: 'oban.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from(await jpeg(400, 300)),
    });
    await form.getByRole('button', { name: 'Log beverage' }).click();
    await ash.locator('.note--success', { hasText: 'Beverage logged successfully' }).waitFor();
    await delivered();

    const beech = await openAs('beech', '/activity');
    const item = card(beech, 'Oban 14');
    await item.waitFor();
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('Ash Cooper');
    expect(text).toContain('logged');
    expect(text).toContain('Scotch');
    expect(text).toContain('Oban Distillery');
    expect(await item.getByRole('img', { name: 'Rated 3 out of 5' }).isVisible()).toBe(true);
    expect(await item.locator('time').count()).toBe(1);
    expect(await loadedWidth(item.locator('img'))).toBeGreaterThan(0);
    expect(await item.getByRole('link', { name: 'Ash Cooper' }).getAttribute('href')).toBe(
      '/users/ash',
    );
    // Read-only: nothing to edit, and the earlier entry is not there.
    expect(await item.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(await card(beech, 'Old Pulteney 12').count()).toBe(0);
    expect(await beech.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await item.getByRole('button', { name: 'Add to vault: Oban 14' }).click();
    await beech
      .locator('.note--success', { hasText: 'Added “Oban 14” to your to-try list' })
      .waitFor();
    await item.getByText('In your vault').waitFor();

    // B's own, editable copy, at the top of their to-try whiskies, photo included.
    await beech.getByRole('link', { name: 'Dashboard', exact: true }).click();
    const copy = panelList(beech, 'Whiskey', 'To try').getByRole('article').first();
    await copy.getByRole('heading', { name: 'Oban 14' }).waitFor();
    expect(await copy.getByRole('button', { name: 'Edit Oban 14' }).isVisible()).toBe(true);
    expect(await loadedWidth(copy.locator('img'))).toBeGreaterThan(0);
  });

  it('offers Load more while there is a next page, and a failed load says why', async () => {
    expect(await callAs('rowan', 'POST', `/api/users/${userId('larch')}/follow`, {})).toBe(201);
    for (let index = 1; index <= 23; index += 1) {
      await seedEntry(people.server, 'larch', { name: `Cask ${String(index).padStart(2, '0')}` });
    }
    await delivered();

    const rowan = await openAs('rowan', '/activity');
    const items = rowan.getByRole('list', { name: 'Recent activity' }).getByRole('article');
    await card(rowan, 'Cask 23').waitFor();
    expect(await items.count()).toBe(20);
    expect(await card(rowan, 'Cask 03').count()).toBe(0);

    await rowan.getByRole('button', { name: 'Load more' }).click();
    await card(rowan, 'Cask 01').waitFor();
    expect(await items.count()).toBe(23);
    expect(await rowan.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    await rowan.route('**/api/activity*', (route) =>
      route.fulfill({ status: 500, json: { message: 'The feed is resting' } }),
    );
    await rowan.reload();
    await rowan.getByRole('alert').getByText('The feed is resting').waitFor();
    await rowan.unroute('**/api/activity*');
    await rowan.getByRole('button', { name: 'Try again' }).click();
    await card(rowan, 'Cask 23').waitFor();

    // After an unfollow the feed, loaded again, no longer has that person's entries.
    await rowan.getByRole('link', { name: 'Following', exact: true }).click();
    await rowan.getByRole('button', { name: 'Unfollow Larch Kiln' }).click();
    await rowan.getByText("You aren't following anyone yet.").waitFor();
    await rowan.getByRole('link', { name: 'Activity', exact: true }).click();
    await rowan
      .getByText('No recent activity from people you follow yet.', { exact: true })
      .waitFor();
  });
});

describe('sharing', () => {
  it("A shares an entry, B adds it to to-try from Alerts, A removes the share and it leaves B's vault", async () => {
    await seedEntry(people.server, 'ash', { name: 'Lagavulin 16', subtype: 'Scotch', rating: 5 });
    const ash = await openAs('ash', '/');
    const requests = watchShares(ash);
    await openEditor(ash, 'Lagavulin 16');
    const panel = sharing(ash);
    await panel.getByText('Not shared with anyone yet.').waitFor();

    // The same search as '+ Follow'.
    await panel.getByLabel('Share with', { exact: true }).fill('b');
    await panel.getByText('Enter at least two characters to search.').waitFor();
    await panel.getByLabel('Share with', { exact: true }).fill('nobody-here');
    await panel.getByText('No users found.', { exact: true }).waitFor();

    await chooseRecipient(ash, 'beech', 'Beech Malter');
    await panel.getByLabel('Message (optional)').fill('Smoky, you will love it');
    await panel.getByRole('button', { name: 'Send invitation' }).click();
    await panel.getByText('Invitation sent', { exact: true }).waitFor();
    const shared = panel.getByRole('list', { name: 'Shared with' }).getByRole('listitem');
    await shared.filter({ hasText: 'Beech Malter' }).getByText('Pending').waitFor();
    expect(requests).toHaveLength(1);

    // Someone already in the list: refused here, nothing sent.
    await chooseRecipient(ash, 'beech', 'Beech Malter');
    await panel
      .getByRole('alert')
      .getByText('This entry is already shared with Beech Malter.')
      .waitFor();
    expect(requests).toHaveLength(1);
    await ash.keyboard.press('Escape');
    await editDialog(ash).waitFor({ state: 'detached' });
    await delivered();

    // B answers from Alerts: 'Add to to-try'.
    const beech = await openAs('beech', '/');
    await expectPending(beech, 1);
    await alertsButton(beech).click();
    await beech.getByText('Smoky, you will love it').waitFor();
    await beech.getByRole('button', { name: 'Add to to-try' }).click();
    await beech.getByText('Beverage added to to-try list', { exact: true }).first().waitFor();
    await expectPending(beech, 0);
    const top = panelList(beech, 'Whiskey', 'To try').getByRole('article').first();
    await top.getByRole('heading', { name: 'Lagavulin 16' }).waitFor();
    expect(await top.getByText('View only').isVisible()).toBe(true);
    expect(await top.textContent()).toContain('Logged by Ash Cooper');
    await beech.reload();
    await panelList(beech, 'Whiskey', 'To try')
      .getByRole('article')
      .first()
      .getByRole('heading', { name: 'Lagavulin 16' })
      .waitFor();

    // A sees it accepted and removes the share.
    await ash.reload();
    await openEditor(ash, 'Lagavulin 16');
    await shared.filter({ hasText: 'Beech Malter' }).getByText('Accepted').waitFor();
    await panel.getByRole('button', { name: 'Remove share with Beech Malter' }).click();
    await panel.getByText('Share removed', { exact: true }).waitFor();
    await panel.getByText('Not shared with anyone yet.').waitFor();
    expect(requests.at(-1)).toMatch(/^DELETE \/api\/beverages\/\d+\/share\/\d+$/);

    await beech.reload();
    await panelList(beech, 'Whiskey', 'To try').waitFor();
    await expect.poll(() => card(beech, 'Lagavulin 16').count()).toBe(0);
  });

  it('the recipient declines a share: Invitation declined, and the entry is no longer shared', async () => {
    const entry = await seedEntry(people.server, 'ash', { name: 'Talisker 10', subtype: 'Scotch' });
    expect(
      await callAs('ash', 'POST', `/api/beverages/${entry.id}/share`, { userId: userId('rowan') }),
    ).toBe(200);
    await delivered();

    const rowan = await openAs('rowan', '/');
    await expectPending(rowan, 1);
    await alertsButton(rowan).click();
    await rowan
      .getByText(/Talisker 10/)
      .first()
      .waitFor();
    await rowan.getByRole('button', { name: 'Decline' }).click();
    await rowan.getByText('Invitation declined', { exact: true }).first().waitFor();
    await expectPending(rowan, 0);
    expect(await card(rowan, 'Talisker 10').count()).toBe(0);

    const ash = await openAs('ash', '/');
    await openEditor(ash, 'Talisker 10');
    await sharing(ash).getByText('Not shared with anyone yet.').waitFor();
  });

  it("an admin shares someone else's entry from its Sharing panel, but never with its owner", async () => {
    const entry = await seedEntry(people.server, 'larch', {
      name: 'Springbank 10',
      subtype: 'Single Malt',
    });
    const adminId = (await people.server.ctx.users.findByUsername(people.server.adminUsername))!.id;
    expect(
      await callAs('larch', 'POST', `/api/beverages/${entry.id}/share`, { userId: adminId }),
    ).toBe(200);
    await delivered();

    // On larch's profile the entry is read-only, for an admin too.
    const profile = await openAs('admin', '/users/larch');
    await card(profile, 'Springbank 10').getByText('View only').waitFor();
    expect(await profile.getByRole('button', { name: 'Edit Springbank 10' }).count()).toBe(0);

    // Added to the admin's own vault, it opens in the editor from there.
    const admin = await openAs('admin', '/');
    await alertsButton(admin).click();
    await admin.getByRole('button', { name: 'Add to tried' }).click();
    await admin.getByText('Beverage added to tried vault', { exact: true }).first().waitFor();
    await admin.keyboard.press('Escape');
    const requests = watchShares(admin);
    await openEditor(admin, 'Springbank 10');
    const panel = sharing(admin);

    await panel.getByLabel('Share with', { exact: true }).fill('larch');
    const owner = results(panel).getByRole('button', { name: /Larch Kiln/ });
    await owner.getByText('Owner').waitFor();
    await owner.click();
    await panel
      .getByRole('alert')
      .getByText('This entry cannot be shared with its owner.')
      .waitFor();
    expect(requests).toEqual([]);

    await chooseRecipient(admin, 'rowan', 'Rowan Quiet');
    await panel.getByRole('button', { name: 'Send invitation' }).click();
    await panel.getByText('Invitation sent', { exact: true }).waitFor();
    await panel.getByRole('list', { name: 'Shared with' }).getByText('Rowan Quiet').waitFor();
    expect(requests).toHaveLength(1);
  });

  it('Add to tried puts a shared entry at the top of the tried list, View only, with no editor', async () => {
    const entry = await seedEntry(people.server, 'larch', {
      name: 'Kilkerran 12',
      subtype: 'Single Malt',
    });
    expect(
      await callAs('larch', 'POST', `/api/beverages/${entry.id}/share`, { userId: userId('ash') }),
    ).toBe(200);
    await delivered();

    const ash = await openAs('ash', '/');
    await alertsButton(ash).click();
    await ash
      .getByText(/Kilkerran 12/)
      .first()
      .waitFor();
    await ash.getByRole('button', { name: 'Add to tried' }).click();
    await ash.getByText('Beverage added to tried vault', { exact: true }).first().waitFor();

    const top = panelList(ash, 'Whiskey', 'Tried').getByRole('article').first();
    await top.getByRole('heading', { name: 'Kilkerran 12' }).waitFor();
    await top.getByText('View only').waitFor();
    expect(await top.textContent()).toContain('Logged by Larch Kiln');
    expect(await ash.getByRole('button', { name: 'Edit Kilkerran 12' }).count()).toBe(0);
    await ash.keyboard.press('Escape');
    await top.click();
    expect(await ash.getByRole('dialog').count()).toBe(0);
  });
});
