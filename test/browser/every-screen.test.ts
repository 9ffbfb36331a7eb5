import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import {
  launchBrowser,
  openPage,
  signedInState,
  type BrowserSession,
  type StorageState,
} from '../helpers/browser.ts';
import { SIGNED_IN_SCREENS, openScreen, seedScreens } from './screens.ts';

let server: TestServer;
let browser: Browser;
let session: BrowserSession | undefined;
let admin: StorageState;

const WIDTH = 390;
const HEIGHT = 844;
const MIN_TAP = 44;

const SIZES = [
  { name: 'a phone (390 px)', width: WIDTH, height: HEIGHT },
  { name: 'a desktop (1280 px)', width: 1280, height: 800 },
] as const;

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

/**
 * At phone width, the page does not scroll sideways and its buttons and navigation links are big
 * enough to tap; at desktop width, nothing to check.
 */
async function expectFitsPhone(page: Page, width: number) {
  if (width !== WIDTH) return;
  expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
  expect(await smallTargets(page)).toEqual([]);
}

describe.each(SIZES)('axe-core on $name', ({ width, height }) => {
  // On a phone, each screen is also checked for sideways scrolling and small tap targets.
  const fits = width === WIDTH ? ', and it fits a phone with targets of 44 px' : '';

  it(`finds no serious or critical violation on the login screen${fits}`, async () => {
    session = await openPage(browser, server.url, { width, height });
    await session.page.goto('/');
    await session.page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await seriousViolations(session.page)).toEqual([]);
    await expectFitsPhone(session.page, width);
  });

  describe('signed in', () => {
    // One page for every screen of this size; each screen is its own test.
    let signedIn: BrowserSession;

    beforeAll(async () => {
      signedIn = await openPage(browser, server.url, { width, height, storageState: admin });
    });

    afterAll(async () => {
      await signedIn?.context.close();
    });

    it.each(SIGNED_IN_SCREENS)(
      `finds no serious or critical violation on the $name${fits}`,
      async (screen) => {
        await openScreen(signedIn.page, screen.path, screen.heading);
        if (screen.path === '/activity') {
          // The feed has its cards, 'Add to vault' buttons included, for axe to check.
          expect(await signedIn.page.getByRole('article').count()).toBeGreaterThan(0);
        }
        expect(await seriousViolations(signedIn.page)).toEqual([]);
        await expectFitsPhone(signedIn.page, width);
        expect(signedIn.pageErrors).toEqual([]);
      },
    );
  });
});

describe('at 390 px wide', () => {
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
