import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';

/*
 * The header's Alerts button and panel with two people: B follows A through the API, A's badge
 * says 1 pending (after the 30 s poll, or on opening the panel), 'Follow back' makes A follow B,
 * 'Dismiss' only answers, no 'Follow back' for someone A follows already; the empty state,
 * errors in the panel, and the keyboard.
 */

const PEOPLE = [
  ['alder', 'Alder Reed'],
  ['birch', 'Birch Bark'],
  ['cedar', 'Cedar Smoke'],
  ['dogwood', 'Dogwood Bloom'],
  ['elm', 'Elm Shade'],
] as const;

const people = peopleInBrowsers(PEOPLE);
const { openAs, userId } = people;

/** Calls the API from `page` (same origin, its cookies); resolves to the status and body. */
async function call(page: Page, method: string, path: string) {
  return page.evaluate(
    async ({ method, path }) => {
      const response = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json' },
      });
      return { status: response.status, body: (await response.json()) as unknown };
    },
    { method, path },
  );
}

/** `follower` follows `followed` through the API; the notification is then delivered. */
async function follow(follower: string, followed: string) {
  const page = await openAs(follower);
  const { status } = await call(page, 'POST', `/api/users/${userId(followed)}/follow`);
  expect(status).toBe(201);
  await people.server.ctx.outbox.idle();
}

/** The usernames `page`'s user follows. */
async function following(page: Page): Promise<string[]> {
  const { body } = await call(page, 'GET', '/api/users/following');
  return (body as { following: { user: { username: string } }[] }).following.map(
    (item) => item.user.username,
  );
}

const alertsButton = (page: Page, pending: number) =>
  page.getByRole('button', { name: `Alerts, ${pending} pending`, exact: true });
const panel = (page: Page) => page.getByRole('region', { name: 'Alerts' });
const item = (page: Page, text: string) =>
  panel(page).getByRole('listitem').filter({ hasText: text });

describe('the Alerts panel', () => {
  it("says 'No notifications yet.' when there are none", async () => {
    const page = await openAs('elm');
    await alertsButton(page, 0).click();
    await panel(page).getByText('No notifications yet.').waitFor();
    expect(await panel(page).getByRole('listitem').count()).toBe(0);
  });

  it("shows a new follower after the poll without a reload, and 'Follow back' follows them", async () => {
    const page = await openAs('alder', '/', { prepare: (p) => p.clock.install() });
    await alertsButton(page, 0).waitFor();
    await follow('birch', 'alder');

    // The badge polls every 30 s while the tab is visible.
    await page.clock.fastForward(31_000);
    await alertsButton(page, 1).waitFor();

    await alertsButton(page, 1).click();
    const invite = item(page, 'Birch Bark followed you');
    await invite.waitFor();
    expect(await following(page)).not.toContain('birch');
    await invite.getByRole('button', { name: 'Follow back' }).click();

    await invite.getByText('Followed back').waitFor();
    expect(await invite.getByRole('button').count()).toBe(0);
    await alertsButton(page, 0).waitFor();
    expect(await following(page)).toContain('birch');
  });

  it("counts a new one when the panel opens, and 'Dismiss' answers without following", async () => {
    const page = await openAs('dogwood');
    await alertsButton(page, 0).waitFor();
    await follow('cedar', 'dogwood');

    // Opened from the keyboard: the panel asks the server again.
    await alertsButton(page, 0).focus();
    await page.keyboard.press('Enter');
    const invite = item(page, 'Cedar Smoke followed you');
    await invite.waitFor();
    await alertsButton(page, 1).waitFor();

    // Tab reaches the invite's buttons; Escape closes the panel and gives focus back.
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Follow back');
    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'detached' });
    await expect.poll(() => alertsButton(page, 1).and(page.locator(':focus')).count()).toBe(1);

    await alertsButton(page, 1).click();
    await invite.getByRole('button', { name: 'Dismiss' }).click();
    await invite.getByText('Dismissed').waitFor();
    await alertsButton(page, 0).waitFor();
    expect(await following(page)).not.toContain('cedar');
  });

  it("offers no 'Follow back' to a follower the user follows already, only 'Dismiss'", async () => {
    await follow('dogwood', 'elm');
    await follow('elm', 'dogwood');
    const page = await openAs('dogwood');
    await page.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    const invite = item(page, 'Elm Shade followed you');
    await invite.getByRole('button', { name: 'Dismiss' }).waitFor();
    expect(await invite.getByRole('button').allTextContents()).toEqual(['Dismiss']);
    await invite.getByRole('button', { name: 'Dismiss' }).click();
    await invite.getByText('Dismissed').waitFor();
    expect(await following(page)).toContain('elm');
  });

  it('shows a refused answer in the panel and keeps the buttons', async () => {
    await follow('elm', 'cedar');
    const page = await openAs('cedar', '/', {
      prepare: (p) =>
        p.route('**/api/notifications/*/respond', (route) =>
          route.fulfill({
            status: 409,
            json: { message: 'This notification was already answered' },
          }),
        ),
    });
    await alertsButton(page, 1).click();
    const invite = item(page, 'Elm Shade followed you');
    await invite.getByRole('button', { name: 'Follow back' }).click();
    const error = invite.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe('This notification was already answered');
    await expect.poll(() => invite.getByRole('button', { name: 'Dismiss' }).isEnabled()).toBe(true);
    await alertsButton(page, 1).waitFor();
  });
});
