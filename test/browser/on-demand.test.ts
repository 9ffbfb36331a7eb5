import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { headingText } from '../helpers/browser.ts';

// Screens a visit may never open are fetched when first shown (web/src/ui/lazy.tsx).
const people = peopleInBrowsers();

/** The JavaScript files the page has requested so far, by file name. */
function scriptLog(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('.js')) scripts.push(pathname.slice(pathname.lastIndexOf('/') + 1));
  });
  return scripts;
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('screens loaded on demand', () => {
  it('fetches the Admin Console only when it is opened, and focuses its heading', async () => {
    let scripts: string[] = [];
    const page = await people.openAs('admin', '/', {
      prepare: async (page) => (scripts = scriptLog(page)),
    });
    expect(await headingText(page)).toBe('Dashboard');
    expect(scripts.filter((name) => name.startsWith('AdminScreen'))).toEqual([]);

    await nav(page).getByRole('link', { name: 'Admin Console' }).click();
    const heading = page.getByRole('heading', { level: 1, name: 'Admin Console' });
    await heading.waitFor();
    expect(scripts.filter((name) => name.startsWith('AdminScreen'))).toHaveLength(1);
    const focused = page.locator('h1:focus');
    await focused.waitFor();
    expect(await focused.textContent()).toBe('Admin Console');
    expect(await page.getByText('Loading users…').or(page.getByRole('table')).count()).toBe(1);
  });

  it('says a screen could not be loaded, and offers Reload', async () => {
    const page = await people.openAs('admin', '/', {
      prepare: (page) => page.route(/\/assets\/ProfileScreen-[^/]+\.js$/, (route) => route.abort()),
    });
    await page.goto('/profile');
    const alert = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
    await alert.waitFor();
    expect(await alert.textContent()).toBe('This part of the vault could not be loaded.');
    expect(await page.getByRole('button', { name: 'Reload' }).count()).toBe(1);
    // The rest of the vault still works.
    await nav(page).getByRole('link', { name: 'Cellar' }).click();
    expect(await headingText(page)).toBe('Cellar');
  });
});
