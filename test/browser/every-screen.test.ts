import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import type { BrowserSession } from '../helpers/browser.ts';
import { SIGNED_IN_SCREENS, openScreen, seedScreens } from './screens.ts';
import { outsideViewport, scrollWidth, smallTargets } from './phone-checks.ts';

const people = peopleInBrowsers();

const WIDTH = 390;
const HEIGHT = 844;
/** The narrowest phone the vault is made for. */
const NARROWEST = 320;

const SIZES = [
  { name: 'a phone (390 px)', width: WIDTH, height: HEIGHT },
  { name: 'a desktop (1280 px)', width: 1280, height: 800 },
] as const;

beforeAll(async () => {
  await seedScreens(people.server);
});

/**
 * At phone width (390 px, then 320 px), the page does not scroll sideways and everything on it to
 * tap (links, buttons, fields, selects, radios, sliders) is big enough; at desktop width, nothing
 * to check. The page is left at 390 px.
 */
async function expectFitsPhone(page: Page, width: number) {
  if (width !== WIDTH) return;
  // How far the page scrolls sideways (0: not at all), and the targets too small.
  const found: Record<number, { sideways: number; small: string[] }> = {};
  const fine: typeof found = {};
  for (const phone of [NARROWEST, WIDTH]) {
    await page.setViewportSize({ width: phone, height: HEIGHT });
    const sideways = Math.max(0, (await scrollWidth(page)) - phone);
    found[phone] = { sideways, small: await smallTargets(page) };
    fine[phone] = { sideways: 0, small: [] };
  }
  expect(found).toEqual(fine);
}

describe.each(SIZES)('axe-core on $name', ({ width, height }) => {
  // On a phone, each screen is also checked for sideways scrolling and small tap targets.
  const fits =
    width === WIDTH ? ', and it fits a phone (320 and 390 px) with targets of 44 px' : '';

  it(`finds no serious or critical violation on the login screen${fits}`, async () => {
    const session = await people.openPage({ width, height });
    await session.page.goto('/');
    await session.page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await seriousViolations(session.page)).toEqual([]);
    await expectFitsPhone(session.page, width);
  });

  describe('signed in', () => {
    // One page for every screen of this size; each screen is its own test.
    let signedIn: BrowserSession;

    beforeAll(async () => {
      signedIn = await people.openPage({ width, height, as: 'admin' });
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
        if (screen.path.includes('?entry=')) {
          // The entry's card, not 'Entry not found.', and its thread open over the dashboard.
          await signedIn.page.locator('.alert-entry article').waitFor();
          await signedIn.page
            .getByRole('dialog', { name: 'Comments' })
            .getByText('No comments yet.')
            .waitFor();
        }
        expect(await seriousViolations(signedIn.page)).toEqual([]);
        await expectFitsPhone(signedIn.page, width);
        expect(signedIn.pageErrors).toEqual([]);
      },
    );
  });
});

describe('at 390 px wide', () => {
  it('opens the edit dialog, the comment thread, the Alerts panel, the account menu and the follow dialog within the screen (and the panel and menu at 320 px)', async () => {
    const { page } = await people.openPage({
      width: WIDTH,
      height: HEIGHT,
      as: 'admin',
    });
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

    // An entry's comments: the thread and its form.
    await page
      .getByRole('button', { name: /^Comments: Pliny the Elder, / })
      .first()
      .click();
    const thread = page.getByRole('dialog', { name: 'Comments' });
    await thread.getByLabel('Your comment').waitFor();
    await check('comment thread');
    await page.keyboard.press('Escape');
    await thread.waitFor({ state: 'detached' });

    // The Alerts panel and the account menu lie inside the screen, on a 320 px phone too.
    const alerts = page.getByRole('region', { name: 'Alerts' });
    await page.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    await alerts.waitFor();
    await check('Alerts panel');
    const menu = page.getByRole('menu', { name: 'Account' });
    for (const width of [WIDTH, NARROWEST]) {
      await page.setViewportSize({ width, height: HEIGHT });
      const outside = await outsideViewport(alerts, width);
      if (outside) problems[`Alerts panel at ${width} px`] = outside;
    }
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: /^Account menu for / }).click();
    await menu.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    for (const width of [NARROWEST, WIDTH]) {
      await page.setViewportSize({ width, height: HEIGHT });
      const outside = await outsideViewport(menu, width);
      if (outside) problems[`account menu at ${width} px`] = outside;
    }
    await check('account menu');
    await page.keyboard.press('Escape');

    await openScreen(page, '/following', 'Following');
    await page.getByRole('button', { name: '+ Follow' }).click();
    await page.getByRole('dialog').waitFor();
    await check('follow dialog');

    expect(problems).toEqual({});
  });

  it('puts the navigation in a bar at the bottom of the screen, within reach of a thumb', async () => {
    const { page } = await people.openPage({
      width: WIDTH,
      height: HEIGHT,
      as: 'admin',
    });
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
