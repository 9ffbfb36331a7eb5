import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Role } from '../../src/db/schema/index.ts';
import {
  launchBrowser,
  openPage,
  openSignedIn,
  signedInState,
  type BrowserSession,
  type PageOptions,
  type StorageState,
} from './browser.ts';
import { startHttpsVault, type HttpsVault } from './https-vault.ts';
import { startTestServer, type TestServer } from './server.ts';
import { sharedTestCertificate } from './tls.ts';

export const PEOPLE_PASSWORD = 'long-enough-password';

/** A user the fixture creates, in full. */
export interface PersonInput {
  username: string;
  /** PEOPLE_PASSWORD when left out. */
  password?: string;
  fullName?: string;
  email?: string;
  role?: Role;
  activityPubEnabled?: boolean;
}

/** A user the fixture creates: [username, fullName] with PEOPLE_PASSWORD, or in full. */
export type Person = readonly [string, string] | PersonInput;

export type ServerOptions = NonNullable<Parameters<typeof startTestServer>[0]>;

export interface FixtureOptions extends ServerOptions {
  /**
   * A second vault, behind TLS (test/helpers/https-vault.ts), for tests across two vaults: the
   * browser's vault looks its people up by handle over https.
   */
  remote?: boolean;
}

/** How a page is opened: its viewport and context (PageOptions) and what runs before it loads. */
export interface OpenOptions extends Omit<PageOptions, 'storageState'> {
  /** Runs before the first navigation (to add init scripts, routes, a virtual authenticator). */
  prepare?: (page: Page) => Promise<unknown>;
  /**
   * A session of its own, signed in now, for a test that ends or changes sessions (signs out,
   * changes the password); otherwise the person's one sign-in of the file is reused.
   */
  freshSignIn?: boolean;
}

/**
 * The one set-up of the browser tests: the real vault on a real port (a second one with
 * `remote`), the run's Chromium, and the `people` created at the start (the first admin too, as
 * 'admin'). A person is signed in once, when first needed, and each page opened with `openAs`
 * (or `openPage`, not signed in) has a fresh browser context. A page opened during a test is
 * closed after it; one opened in a beforeAll lives until the file ends. Either way no page may
 * have thrown an uncaught error when a test ends. Registers its own hooks, so it is called at the
 * top of a test file.
 */
export function peopleInBrowsers(people: readonly Person[] = [], options: FixtureOptions = {}) {
  const { remote: withRemote, ...serverOptions } = options;
  let server: TestServer;
  let remote: HttpsVault | undefined;
  let browser: Browser;
  const passwords = new Map<string, string>();
  const signIns = new Map<string, Promise<StorageState>>();
  const fileSessions: BrowserSession[] = [];
  const testSessions: BrowserSession[] = [];
  const testServers: TestServer[] = [];
  let inTest = false;

  beforeAll(async () => {
    if (withRemote) sharedTestCertificate().trustInThisProcess();
    [server, browser, remote] = await Promise.all([
      startTestServer(serverOptions),
      launchBrowser(),
      withRemote ? startHttpsVault() : undefined,
    ]);
    passwords.set('admin', server.adminPassword);
    for (const person of people) await addPerson(person);
  });

  afterAll(async () => {
    const open = fileSessions.splice(0);
    for (const session of open) await session.context.close();
    await browser?.close();
    await Promise.all([server?.close(), remote?.close()]);
    for (const session of open) expect(session.pageErrors).toEqual([]);
  });

  beforeEach(() => {
    inTest = true;
  });

  afterEach(async () => {
    inTest = false;
    const open = testSessions.splice(0);
    for (const session of open) await session.context.close();
    for (const own of testServers.splice(0)) await own.close().catch(() => undefined);
    for (const session of [...open, ...fileSessions]) expect(session.pageErrors).toEqual([]);
  });

  async function addPerson(person: Person) {
    const input: PersonInput =
      'username' in person ? person : { username: person[0], fullName: person[1] };
    const password = input.password ?? PEOPLE_PASSWORD;
    passwords.set(input.username, password);
    return server.createUser({ ...input, password });
  }

  function track(session: BrowserSession): BrowserSession {
    (inTest ? testSessions : fileSessions).push(session);
    return session;
  }

  /** The signed-in cookies of `username` ('admin' for the first admin). */
  function stateOf(username: string, fresh = false): Promise<StorageState> {
    const password = passwords.get(username);
    if (password === undefined) throw new Error(`${username} is not one of the fixture's people`);
    const login = username === 'admin' ? server.adminUsername : username;
    if (fresh) return signedInState(browser, server.url, login, password);
    let state = signIns.get(username);
    if (!state) {
      state = signedInState(browser, server.url, login, password);
      signIns.set(username, state);
    }
    return state;
  }

  /** A session signed in as `username` ('admin' for the first admin) at `path`. */
  async function sessionAs(username: string, path = '/', open: OpenOptions = {}) {
    const { freshSignIn, ...pageOptions } = open;
    const state = await stateOf(username, freshSignIn);
    return track(await openSignedIn(browser, server.url, state, path, pageOptions));
  }

  return {
    get server(): TestServer {
      return server;
    },
    /** The second vault (with `remote`). */
    get remote(): HttpsVault {
      if (!remote) throw new Error('peopleInBrowsers was not asked for a remote vault');
      return remote;
    },
    /** Creates a person during the tests, who can then be opened as. */
    addPerson,
    sessionAs,
    /** The Cookie header of `username`'s sign-in, for calls to the API from the test. */
    async cookieOf(username: string): Promise<string> {
      const { cookies } = await stateOf(username);
      return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    },
    /** A page signed in as `username` ('admin' for the first admin) at `path`. */
    async openAs(username: string, path = '/', open: OpenOptions = {}): Promise<Page> {
      return (await sessionAs(username, path, open)).page;
    },
    /**
     * A page in a fresh context, not yet at any URL: signed out, or with the cookies of `as`
     * when given (without waiting for any screen).
     */
    async openPage(open: Omit<PageOptions, 'storageState'> & { as?: string } = {}) {
      const { as, ...pageOptions } = open;
      const storageState = as === undefined ? undefined : await stateOf(as);
      return track(await openPage(browser, server.url, { ...pageOptions, storageState }));
    },
    /** A vault of the test's own (closed after the test), for a test that stops one. */
    async startServer(own: ServerOptions = {}) {
      const started = await startTestServer(own);
      testServers.push(started);
      return started;
    },
    /** A page signed in to `other` (a vault from startServer) as one of its users. */
    async sessionOn(
      other: TestServer,
      username: string,
      password: string,
      path = '/',
      open: Omit<OpenOptions, 'freshSignIn'> = {},
    ) {
      const state = await signedInState(browser, other.url, username, password);
      return track(await openSignedIn(browser, other.url, state, path, open));
    },
    /**
     * A user's id, read straight from the file (so it stays synchronous for the tests): browser
     * tests run on SQLite only.
     */
    userId(username: string): number {
      const id = server.ctx.database
        .sqlite!.prepare('SELECT id FROM users WHERE username = ?')
        .pluck()
        .get(username) as number | undefined;
      if (id === undefined) throw new Error(`no user ${username}`);
      return id;
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
