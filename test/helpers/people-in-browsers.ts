import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import {
  launchBrowser,
  openSignedIn,
  signedInState,
  type BrowserSession,
  type StorageState,
} from './browser.ts';
import { startTestServer, type TestServer } from './server.ts';

export const PEOPLE_PASSWORD = 'long-enough-password';

/**
 * A real server and browser for a test file about several people: creates each
 * [username, fullName] with PEOPLE_PASSWORD and signs them in once (and the first admin, as
 * 'admin'); `openAs` opens a page signed in as one of them in a fresh browser context, closed
 * after the test, which must have thrown no uncaught error in the page. Registers its own
 * beforeAll, afterAll and afterEach hooks.
 */
export function peopleInBrowsers(
  people: readonly (readonly [string, string])[],
  /** The server's clock (see startTestServer); the real one when left out. */
  options: { now?: () => number } = {},
) {
  let server: TestServer;
  let browser: Browser;
  const sessions: BrowserSession[] = [];
  const state: Record<string, StorageState> = {};

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(options), launchBrowser()]);
    for (const [username, fullName] of people) {
      await server.createUser({ username, password: PEOPLE_PASSWORD, fullName });
    }
    const signIns: [string, string][] = people.map(([username]) => [username, PEOPLE_PASSWORD]);
    signIns.push(['admin', server.adminPassword]);
    await Promise.all(
      signIns.map(async ([username, password]) => {
        const login = username === 'admin' ? server.adminUsername : username;
        state[username] = await signedInState(browser, server.url, login, password);
      }),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(async () => {
    const open = sessions.splice(0);
    for (const session of open) await session.context.close();
    for (const session of open) expect(session.pageErrors).toEqual([]);
  });

  return {
    get server(): TestServer {
      return server;
    },
    get browser(): Browser {
      return browser;
    },
    /** A page signed in as `username` ('admin' for the first admin) at `path`. */
    async openAs(
      username: string,
      path = '/',
      prepare?: (page: Page) => Promise<unknown>,
    ): Promise<Page> {
      const session = await openSignedIn(browser, server.url, state[username]!, path, { prepare });
      sessions.push(session);
      return session.page;
    },
    userId(username: string): number {
      return server.ctx.users.findByUsername(username)!.id;
    },
  };
}

/**
 * Waits until `page`'s Alerts badge says `count` pending. The badge polls every 30 s (tested
 * with the page's clock in test/browser/alerts.test.ts); a page opened before the notification
 * was delivered is reloaded rather than waited for.
 */
export async function expectPending(page: Page, count: number): Promise<void> {
  const badge = page.getByRole('button', { name: `Alerts, ${count} pending`, exact: true });
  try {
    await badge.waitFor({ timeout: 1_000 });
  } catch {
    await page.reload();
    await badge.waitFor();
  }
}
