import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiStatus,
  launchBrowser,
  openSignedIn,
  signedInState,
  type BrowserSession,
  type StorageState,
} from '../helpers/browser.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let browser: Browser;
let owner: StorageState;
let other: StorageState;
const sessions: BrowserSession[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  await server.createUser({ username: 'keeper', password: 'keeper-password' });
  await server.createUser({ username: 'neighbour', password: 'neighbour-password' });
  owner = await signedInState(browser, server.url, 'keeper', 'keeper-password');
  other = await signedInState(browser, server.url, 'neighbour', 'neighbour-password');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  for (const session of sessions.splice(0)) {
    expect(session.pageErrors).toEqual([]);
    await session.context.close();
  }
});

async function open(state: StorageState, path: string) {
  const session = await openSignedIn(browser, server.url, state, path);
  sessions.push(session);
  return session.page;
}

describe('keeping entries private in the browser', () => {
  it('logs an entry for my eyes only, which another user of the vault cannot open', async () => {
    const page = await open(owner, '/');
    const form = page.getByRole('region', { name: 'Log a new beverage' });
    await form.getByLabel('Name', { exact: true }).fill('Secret stash');
    await form.getByLabel('Who can see it').selectOption({ label: 'Only me' });
    await expect
      .poll(() => form.getByText('Only you (and people you share it with) can see it.').count())
      .toBe(1);
    await form.getByRole('button', { name: 'Log beverage' }).click();
    const card = page.getByRole('article', { name: 'Secret stash' });
    await card.waitFor();
    expect(await card.getByText('Only me', { exact: true }).count()).toBe(1);

    const entry = server.ctx.database.sqlite
      .prepare("SELECT id, visibility FROM beverages WHERE name = 'Secret stash'")
      .get() as { id: number; visibility: string };
    expect(entry.visibility).toBe('PRIVATE');
    const neighbour = await open(other, '/');
    expect(await apiStatus(neighbour, `/api/beverages/${entry.id}`)).toBe(404);
    expect(await apiStatus(page, `/api/beverages/${entry.id}`)).toBe(200);
  });

  it('sets a default for new entries and changes every entry at once on the profile', async () => {
    const page = await open(owner, '/profile');
    const panel = page.getByRole('region', { name: 'Privacy' });
    await panel.getByLabel('New entries are visible to').selectOption({ label: 'My followers' });
    await page.getByText('Default visibility saved').waitFor();
    const user = server.ctx.users.findByUsername('keeper')!;
    expect(user.defaultVisibility).toBe('FOLLOWERS');

    await panel.getByLabel('Change them to').selectOption({
      label: 'Everyone on this vault',
    });
    await panel.getByRole('button', { name: 'Apply to all my entries' }).click();
    await panel.getByRole('button', { name: 'Yes, change them' }).click();
    await page.getByText('1 entry changed to “Everyone on this vault”').waitFor();

    await page.goto('/');
    const form = page.getByRole('region', { name: 'Log a new beverage' });
    expect(await form.getByLabel('Who can see it').inputValue()).toBe('FOLLOWERS');
    const card = page.getByRole('article', { name: 'Secret stash' });
    await card.waitFor();
    expect(await card.getByText('Only me', { exact: true }).count()).toBe(0);
  });
});
