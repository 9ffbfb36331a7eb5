import { chromium } from 'playwright-core';
import { inject } from 'vitest';
import { assertChromiumInstalled } from './chromium.ts';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Cookies (and storage) of a signed-in context, to start other contexts signed in. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * Connects to the run's one Chromium (started by test/global-setup.ts). Closing the returned
 * browser closes the contexts this file opened and leaves Chromium running for the others.
 */
export async function launchBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (!endpoint) {
    assertChromiumInstalled();
    throw new Error('Chromium was installed after the test run started: run the tests again');
  }
  return chromium.connect(endpoint);
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Uncaught exceptions thrown in the page; a test ends by checking it is empty. */
  pageErrors: string[];
}

export interface PageOptions {
  width?: number;
  height?: number;
  storageState?: StorageState;
  /**
   * Whether the vault's service worker may install. Off unless a test is about it
   * (test/browser/pwa.test.ts): installing it fetches every file of the client in the
   * background, which cost each fresh page about 0.7 s of CPU, and the browser tests are CPU
   * bound.
   */
  serviceWorker?: boolean;
  /** A touch screen on a phone (hasTouch and isMobile), for what only a phone offers. */
  touch?: boolean;
}

/**
 * A fresh context (no cookies, no storage) and page whose relative URLs go to `baseURL`. It asks
 * for reduced motion, as a user may (the client's CSS then ends animations at once): waiting for
 * spinners and fades to be drawn had been about a sixth of the browser tests' CPU time.
 */
export async function openPage(
  browser: Browser,
  baseURL: string,
  options: PageOptions = {},
): Promise<BrowserSession> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    serviceWorkers: options.serviceWorker ? 'allow' : 'block',
    reducedMotion: 'reduce',
    ...(options.touch && { hasTouch: true, isMobile: true }),
    ...(options.storageState && { storageState: options.storageState }),
  });
  // Every wait is for a final state, so it may be long: on a busy machine (two cores shared by
  // the browser, the servers and three test files) a screen can take well over 10 s.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { context, page, pageErrors };
}

/** Fills in the login screen and waits for the signed-in layout. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await submitLogin(page, username, password);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Fills in the login screen and presses Log In, without waiting for the outcome. */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  if (!page.url().startsWith('http')) await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** The text of the page's h1, once there is one. */
export async function headingText(page: Page): Promise<string> {
  const heading = page.getByRole('heading', { level: 1 });
  await heading.waitFor();
  return (await heading.textContent())?.trim() ?? '';
}

/** The path of the page's URL (after any client-side redirect has happened). */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Calls the vault's API from inside the page (same origin, with the page's cookies). */
export async function apiStatus(page: Page, path: string): Promise<number> {
  return page.evaluate(async (url) => (await fetch(url, { credentials: 'include' })).status, path);
}

/** A call to the API from `page` (same origin, its cookies): the status and the JSON body. */
export async function callApi(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as unknown };
    },
    { method, path, body },
  );
}

/**
 * Signs in through the API (not the login screen, which has tests of its own) and returns the
 * session's cookies, so that each test's fresh context starts signed in without paying for a
 * password check.
 */
export async function signedInState(
  browser: Browser,
  baseURL: string,
  username: string,
  password: string,
): Promise<StorageState> {
  const context = await browser.newContext({ baseURL });
  try {
    const response = await context.request.post(new URL('/api/auth/login', baseURL).toString(), {
      data: { username, password },
    });
    if (!response.ok()) {
      throw new Error(
        `sign-in of ${username} failed: ${response.status()} ${await response.text()}`,
      );
    }
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** A fresh page signed in with `state`, opened at `path` once the signed-in layout shows. */
export async function openSignedIn(
  browser: Browser,
  baseURL: string,
  state: StorageState,
  path = '/',
  options: Omit<PageOptions, 'storageState'> & {
    /** Runs before the first navigation (to add init scripts or routes). */
    prepare?: (page: Page) => Promise<unknown>;
  } = {},
): Promise<BrowserSession> {
  const session = await openPage(browser, baseURL, { ...options, storageState: state });
  await options.prepare?.(session.page);
  await session.page.goto(path);
  await session.page.getByRole('navigation', { name: 'Main' }).waitFor();
  return session;
}
