import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { headingText, pathOf, signIn, type BrowserSession } from '../helpers/browser.ts';

const NAV_LABELS = [
  'Dashboard',
  'Activity',
  'Cellar',
  'Whiskey Logs',
  'Wine Logs',
  'Beer Logs',
  'Stats',
  'Following',
];

const user = { username: 'hazel', password: 'hazel-password-1', fullName: 'Hazel Barrel' };
const people = peopleInBrowsers([user]);
/** The test's page (whose navigation navLabels reads). */
let session: BrowserSession;

async function navLabels(): Promise<string[]> {
  const links = session.page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  return (await links.allTextContents()).map((text) => text.trim());
}

describe('the signed-in layout', () => {
  it('shows Admin Console in the navigation for an admin only', async () => {
    session = await people.openPage();
    await signIn(session.page, people.server.adminUsername, people.server.adminPassword);
    expect(await navLabels()).toEqual([...NAV_LABELS, 'Admin Console']);
    await session.context.close();

    session = await people.openPage();
    await signIn(session.page, user.username, user.password);
    expect(await navLabels()).toEqual(NAV_LABELS);
    expect(await session.page.getByText('Admin Console').count()).toBe(0);
  });

  it('redirects a plain user from /admin to /', async () => {
    session = await people.openPage();
    const { page } = session;
    await page.goto('/admin');
    await signIn(page, user.username, user.password);

    expect(await headingText(page)).toBe('Dashboard');
    await expect.poll(() => pathOf(page)).toBe('/');

    await page.goto('/admin');
    expect(await headingText(page)).toBe('Dashboard');
    expect(pathOf(page)).toBe('/');
  });

  it('lets an admin open the Admin Console', async () => {
    session = await people.openPage();
    const { page } = session;
    await signIn(page, people.server.adminUsername, people.server.adminPassword);
    await page.getByRole('link', { name: 'Admin Console' }).click();

    expect(await headingText(page)).toBe('Admin Console');
    expect(pathOf(page)).toBe('/admin');
  });

  it('redirects an unknown path to /', async () => {
    session = await people.openPage();
    const { page } = session;
    await signIn(page, user.username, user.password);
    await page.goto('/no/such/place');

    await expect.poll(() => pathOf(page)).toBe('/');
    expect(await headingText(page)).toBe('Dashboard');
  });

  it('shows each screen with its heading and marks its navigation item as current', async () => {
    session = await people.openPage();
    const { page } = session;
    await signIn(page, people.server.adminUsername, people.server.adminPassword);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const routes: [string, string][] = [
      ['Activity', '/activity'],
      ['Cellar', '/cellar'],
      ['Whiskey Logs', '/whiskey'],
      ['Wine Logs', '/wine'],
      ['Beer Logs', '/beer'],
      ['Following', '/following'],
      ['Admin Console', '/admin'],
      ['Dashboard', '/'],
    ];
    for (const [label, path] of routes) {
      const link = nav.getByRole('link', { name: label, exact: true });
      await link.click();
      await page.getByRole('heading', { level: 1, name: label, exact: true }).waitFor();
      expect(pathOf(page)).toBe(path);
      expect(await link.getAttribute('aria-current')).toBe('page');
      expect(await nav.locator('[aria-current="page"]').count()).toBe(1);
      expect(await page.title()).toBe(`${label} · The Vault`);
    }
  });

  it('opens the profile menu and follows its Profile and Back to dashboard items', async () => {
    session = await people.openPage();
    const { page } = session;
    await signIn(page, user.username, user.password);
    const menuButton = page.getByRole('button', { name: `Account menu for ${user.fullName}` });
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');

    await menuButton.click();
    const menu = page.getByRole('menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Profile',
      'Back to dashboard',
      'Sign out',
    ]);
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    expect(await headingText(page)).toBe('Profile');
    expect(pathOf(page)).toBe('/profile');
    expect(await page.getByRole('menu').count()).toBe(0);

    // Keyboard: open with Enter, move with the arrow keys, close with Escape.
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await page.locator(':focus').textContent()).toBe('Back to dashboard');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await menuButton.and(page.locator(':focus')).count()).toBe(1);

    await menuButton.click();
    await menu.getByRole('menuitem', { name: 'Back to dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(pathOf(page)).toBe('/');
  });

  it('shows a zero Alerts badge and an empty notifications panel', async () => {
    session = await people.openPage();
    const { page } = session;
    await signIn(page, user.username, user.password);
    const alerts = page.getByRole('button', { name: 'Alerts, 0 pending' });
    expect(await alerts.textContent()).toContain('0');

    await alerts.click();
    await page.getByText('No notifications yet.').waitFor();
    expect(await alerts.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.keyboard.press('Escape');
    expect(await page.getByText('No notifications yet.').count()).toBe(0);
  });

  it('shows a public profile with the username and a Back to following link', async () => {
    session = await people.openPage();
    const { page } = session;
    await page.goto(`/users/${people.server.adminUsername}`);
    await signIn(page, user.username, user.password);

    expect(await headingText(page)).toBe(people.server.adminUsername);
    await page.getByRole('link', { name: 'Back to following' }).click();
    expect(await headingText(page)).toBe('Following');
    expect(pathOf(page)).toBe('/following');
  });

  it('puts the navigation in a bar at the bottom of a phone, every item reachable without scrolling sideways', async () => {
    session = await people.openPage({ width: 390, height: 800 });
    const { page } = session;
    await signIn(page, people.server.adminUsername, people.server.adminPassword);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const more = nav.getByRole('button', { name: 'More' });
    const everyItem = [...NAV_LABELS, 'Admin Console'];

    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      const header = await page.getByRole('banner').boundingBox();
      const bar = await nav.boundingBox();
      expect(bar!.y).toBeGreaterThanOrEqual(header!.y + header!.height - 1);
      // Within reach of a thumb: its bottom edge is the screen's.
      expect(Math.abs(bar!.y + bar!.height - 800)).toBeLessThanOrEqual(1);
      expect(bar!.height).toBeLessThan(100);
      expect(await sidewaysScroll(page)).toEqual({ document: 0, nav: 0 });
      const onBar = await visibleItems(page, width);
      expect(onBar.outside).toEqual([]);

      // 'More' shows the rest in a sheet above the bar, focus on its first link.
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      await more.click();
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      const sheet = page.locator(`#${await more.getAttribute('aria-controls')}`);
      const first = sheet.getByRole('link').first();
      expect(await first.evaluate((link) => link === link.ownerDocument.activeElement)).toBe(true);
      const all = await visibleItems(page, width);
      expect(all.outside).toEqual([]);
      expect(all.labels.toSorted()).toEqual(everyItem.toSorted());
      expect(onBar.labels.every((label) => all.labels.includes(label))).toBe(true);
      expect(await sidewaysScroll(page)).toEqual({ document: 0, nav: 0 });

      // Escape closes it and hands focus back to 'More'.
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'detached' });
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      expect(await more.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(
        true,
      );
    }

    // A link in the sheet goes to its page and closes the sheet; there it is the current page.
    await more.click();
    await nav.getByRole('link', { name: 'Wine Logs' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wine Logs' }).waitFor();
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.click();
    expect(await nav.getByRole('link', { name: 'Wine Logs' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.keyboard.press('Escape');

    // A tablet: the navigation under the header, every item in view, 'More' not needed.
    for (const width of [800, 600]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await sidewaysScroll(page)).toEqual({ document: 0, nav: 0 });
      const items = await visibleItems(page, width);
      expect(items.outside).toEqual([]);
      expect(items.labels.toSorted()).toEqual(everyItem.toSorted());
      expect(await more.isVisible()).toBe(false);
    }
    // Four widths, two with the sheet opened and closed: longer than one visit.
  }, 60_000);

  it('leaves the account menu open, focus in it, when the screen it was opened over arrives', async () => {
    session = await people.openPage();
    const { page } = session;
    await signIn(page, user.username, user.password);
    // The Cellar screen's code is held back until the menu is open.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/CellarScreen-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Cellar' })
      .click();
    await page.waitForURL('**/cellar');
    expect(await page.getByRole('heading', { level: 1, name: 'Cellar' }).count()).toBe(0);

    await page.getByRole('button', { name: `Account menu for ${user.fullName}` }).click();
    const menu = page.getByRole('menu', { name: 'Account' });
    const focusInMenu = () =>
      menu.evaluate((element) => element.contains(element.ownerDocument.activeElement));
    await expect.poll(focusInMenu, { timeout: 10_000 }).toBe(true);
    release();
    await page.getByRole('heading', { level: 1, name: 'Cellar' }).waitFor();

    expect(await menu.count()).toBe(1);
    expect(await focusInMenu()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await menu.count()).toBe(0);
  });
});

/** How far the page and the navigation scroll sideways (0: not at all). Runs in the page. */
function sidewaysScroll(page: Page): Promise<{ document: number; nav: number }> {
  return page.evaluate(`(() => {
    const overflow = (element) => element.scrollWidth - element.clientWidth;
    return {
      document: overflow(document.scrollingElement),
      nav: overflow(document.querySelector('nav[aria-label="Main"]')),
    };
  })()`);
}

/** The navigation's visible links, and those not wholly inside a viewport `width` wide. */
async function visibleItems(page: Page, width: number) {
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  const height = page.viewportSize()!.height;
  const labels: string[] = [];
  const outside: string[] = [];
  for (const link of await links.all()) {
    const label = (await link.textContent())!.trim();
    const box = (await link.boundingBox())!;
    labels.push(label);
    if (
      box.x < 0 ||
      box.x + box.width > width + 0.5 ||
      box.y < 0 ||
      box.y + box.height > height + 0.5
    ) {
      outside.push(`${label} (${Math.round(box.x)}, ${Math.round(box.y)})`);
    }
  }
  return { labels, outside };
}
