import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
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

const SIZES = [
  { name: 'a phone (390 px)', width: 390, height: 844 },
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

describe.each(SIZES)('axe-core on $name', ({ width, height }) => {
  it('finds no serious or critical violation on the login screen', async () => {
    session = await openPage(browser, server.url, { width, height });
    await session.page.goto('/');
    await session.page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await seriousViolations(session.page)).toEqual([]);
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
      'finds no serious or critical violation on the $name',
      async (screen) => {
        await openScreen(signedIn.page, screen.path, screen.heading);
        expect(await seriousViolations(signedIn.page)).toEqual([]);
        expect(signedIn.pageErrors).toEqual([]);
      },
    );
  });
});
