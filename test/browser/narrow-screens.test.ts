import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  launchBrowser,
  openPage,
  signedInState,
  type BrowserSession,
  type StorageState,
} from '../helpers/browser.ts';
import { SIGNED_IN_SCREENS, openScreen, seedScreens } from './screens.ts';

const WIDTH = 390;
const HEIGHT = 844;
const MIN_TAP = 44;

let server: TestServer;
let browser: Browser;
let session: BrowserSession | undefined;
let admin: StorageState;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await seedScreens(server);
  admin = await signedInState(browser, server.url, server.adminUsername, server.adminPassword);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  if (!session) return;
  expect(session.pageErrors).toEqual([]);
  await session.context.close();
  session = undefined;
});

/** How wide the page scrolls: at most the viewport when nothing sticks out. */
const scrollWidth = (page: Page) =>
  page.evaluate('document.scrollingElement.scrollWidth') as Promise<number>;

/**
 * Visible buttons and navigation links smaller than MIN_TAP in either direction, as
 * 'label (width×height)'. Given as text: it runs in the page.
 */
const smallTargets = (page: Page) =>
  page.evaluate(`(() => {
    const small = [];
    const targets = document.querySelectorAll('button, [role="button"], nav a, [role="menuitem"]');
    for (const element of targets) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || element.closest('[hidden], [aria-hidden="true"]')) continue;
      if (box.width < ${MIN_TAP} - 0.5 || box.height < ${MIN_TAP} - 0.5) {
        const label = (element.getAttribute('aria-label') || element.textContent || element.className).trim().slice(0, 40);
        small.push(label + ' (' + Math.round(box.width) + 'x' + Math.round(box.height) + ')');
      }
    }
    return small;
  })()`) as Promise<string[]>;

describe('at 390 px wide', () => {
  it('the login screen scrolls only vertically and its button is big enough to tap', async () => {
    session = await openPage(browser, server.url, { width: WIDTH, height: HEIGHT });
    await session.page.goto('/');
    await session.page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await scrollWidth(session.page)).toBeLessThanOrEqual(WIDTH);
    expect(await smallTargets(session.page)).toEqual([]);
  });

  describe('every signed-in screen', () => {
    // One page for every screen; each screen is its own test.
    let signedIn: BrowserSession;

    beforeAll(async () => {
      signedIn = await openPage(browser, server.url, {
        width: WIDTH,
        height: HEIGHT,
        storageState: admin,
      });
    });

    afterAll(async () => {
      await signedIn?.context.close();
    });

    it.each(SIGNED_IN_SCREENS)(
      'the $name does not scroll sideways, and its buttons and navigation links are at least 44 px',
      async (screen) => {
        await openScreen(signedIn.page, screen.path, screen.heading);
        expect(await scrollWidth(signedIn.page)).toBeLessThanOrEqual(WIDTH);
        expect(await smallTargets(signedIn.page)).toEqual([]);
        expect(signedIn.pageErrors).toEqual([]);
      },
    );
  });

  it('opens the edit dialog, the Alerts panel, the account menu and the follow dialog within the screen', async () => {
    session = await openPage(browser, server.url, {
      width: WIDTH,
      height: HEIGHT,
      storageState: admin,
    });
    const { page } = session;
    const problems: Record<string, unknown> = {};
    const check = async (name: string) => {
      const width = await scrollWidth(page);
      const targets = await smallTargets(page);
      if (width > WIDTH || targets.length > 0) problems[name] = { width, targets };
    };

    await openScreen(page, '/', 'Dashboard');
    await page.getByRole('button', { name: /^Edit Pliny the Elder/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(WIDTH);
    await check('edit dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    await page.getByRole('region', { name: 'Alerts' }).waitFor();
    await check('Alerts panel');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    await check('account menu');
    await page.keyboard.press('Escape');

    await openScreen(page, '/following', 'Following');
    await page.getByRole('button', { name: '+ Follow' }).click();
    await page.getByRole('dialog').waitFor();
    await check('follow dialog');

    expect(problems).toEqual({});
  });

  it('puts the navigation in a bar at the bottom of the screen, within reach of a thumb', async () => {
    session = await openPage(browser, server.url, {
      width: WIDTH,
      height: HEIGHT,
      storageState: admin,
    });
    const { page } = session;
    await openScreen(page, '/', 'Dashboard');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const box = await nav.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeCloseTo(HEIGHT, 0);
    expect(box!.height).toBeLessThanOrEqual(90);
    // Still at the bottom after scrolling, and the last of the page is not hidden behind it.
    await page.evaluate('window.scrollTo(0, document.scrollingElement.scrollHeight)');
    const after = await nav.boundingBox();
    expect(after!.y + after!.height).toBeCloseTo(HEIGHT, 0);
    const mainBottom = (await page.evaluate(
      `(() => {
        const main = document.getElementById('main');
        const last = main.lastElementChild;
        return last ? last.getBoundingClientRect().bottom : 0;
      })()`,
    )) as number;
    expect(mainBottom).toBeLessThanOrEqual(after!.y + 1);

    await nav.getByRole('link', { name: 'Cellar' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cellar' }).waitFor();
  });
});
