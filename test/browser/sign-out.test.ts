import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { apiStatus, pathOf, signIn } from '../helpers/browser.ts';

const people = peopleInBrowsers();

async function chooseSignOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
}

describe('signing out', () => {
  it('returns to the login screen at / and ends the session on the server', async () => {
    const { page } = await people.openPage();
    await signIn(page, people.server.adminUsername, people.server.adminPassword);
    await page.getByRole('link', { name: 'Wine Logs' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wine Logs' }).waitFor();

    await chooseSignOut(page);

    await page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(pathOf(page)).toBe('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await apiStatus(page, '/api/auth/me')).toBe(401);

    // Nothing of the old session survives a reload either.
    await page.reload();
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await page.getByLabel('Username').inputValue()).toBe('');
  });

  it('shows Failed to logout in the red banner for 6 seconds when sign-out fails', async () => {
    const { page } = await people.openPage();
    await page.clock.install();
    await signIn(page, people.server.adminUsername, people.server.adminPassword);
    // The network drops the sign-out request.
    await page.route('**/api/auth/logout', (route) => route.abort('connectionfailed'));
    // From here on the page's time moves only when the test says so: a slow moment of the
    // machine must not eat into the 6 seconds.
    await page.clock.pauseAt(Date.now() + 1_000);

    await chooseSignOut(page);

    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.textContent()).toBe('Failed to logout');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await apiStatus(page, '/api/auth/me')).toBe(200);

    await page.clock.runFor(5_900);
    expect(await banner.isVisible()).toBe(true);
    await page.clock.runFor(200);
    await banner.waitFor({ state: 'detached' });
    expect(await page.getByText('Failed to logout').count()).toBe(0);
  });
});
