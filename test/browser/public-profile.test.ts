import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { headingText, pathOf } from '../helpers/browser.ts';
import { jpeg } from '../helpers/images.ts';
import { sessionCookieFrom } from '../helpers/vault.ts';
import { loadedWidth, seedEntry } from './vault-seed.ts';

/*
 * A public profile (/users/{username}): who the user is (avatar, names, member-since date,
 * fediverse handle, bio) and their entries, read-only for everyone but the owner, admins included.
 */

const PASSWORD = 'long-enough-password';
const BIO = 'Peat, smoke and the occasional sour. Always happy to swap tasting notes.';

const people = peopleInBrowsers([
  { username: 'hazel', password: PASSWORD, fullName: 'Hazel Barrel', activityPubEnabled: true },
  { username: 'rowan', password: PASSWORD, fullName: 'Rowan Oak' },
]);

/** Uploads an avatar for a user through the real API, as their browser would. */
async function uploadAvatar(username: string) {
  const login = await fetch(`${people.server.url}/api/auth/login`, {
    method: 'POST',
    headers: { origin: people.server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  const form = new FormData();
  form.set('avatar', new Blob([await jpeg(320, 320)], { type: 'image/jpeg' }), 'me.jpg');
  const res = await fetch(`${people.server.url}/api/users/me`, {
    method: 'PATCH',
    headers: { origin: people.server.url, cookie: sessionCookieFrom(login) },
    body: form,
  });
  if (!res.ok) throw new Error(`avatar upload: ${res.status} ${await res.text()}`);
}

beforeAll(async () => {
  await people.server.ctx.users.update(people.userId('hazel'), { bio: BIO });
  await uploadAvatar('hazel');
  await seedEntry(people.server, 'hazel', { name: 'Lagavulin 16', subtype: 'Scotch', rating: 5 });
  await seedEntry(people.server, 'hazel', {
    name: 'Cantillon Gueuze',
    type: 'BEER',
    subtype: 'Sour',
    status: 'TO_TRY',
    rating: 0,
  });
});

const hero = (page: Page, username: string) =>
  page.getByRole('region', { name: `About ${username}`, exact: true });
const cards = (page: Page) =>
  page.getByRole('region', { name: 'Vault entries', exact: true }).getByRole('article');

const openAs = (username: string, path: string, prepare?: (page: Page) => Promise<unknown>) =>
  people.openAs(username, path, { prepare });

describe('a public profile', () => {
  it('shows the avatar, names, member-since date, fediverse handle, bio and read-only entries', async () => {
    const page = await openAs('rowan', '/users/hazel');
    expect(await headingText(page)).toBe('hazel');
    const about = hero(page, 'hazel');
    await about.waitFor();

    const today = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date());
    const text = (await about.textContent()) ?? '';
    expect(text).toContain('Hazel Barrel');
    expect(text).toContain('@hazel');
    expect(text).toContain(`Member since ${today}`);
    expect(text).toContain(`@hazel@${new URL(people.server.url).host}`);
    expect(await about.getByText(BIO, { exact: true }).isVisible()).toBe(true);
    const avatar = about.locator('img.avatar');
    expect(await avatar.getAttribute('src')).toMatch(/^\/media\/avatars\/[0-9a-f]+\.\w+$/);
    expect(await loadedWidth(avatar)).toBeGreaterThan(0);

    // Both entries, each 'View only', and a click on a card opens nothing.
    await cards(page).first().waitFor();
    expect(await cards(page).count()).toBe(2);
    expect(await cards(page).getByText('View only').count()).toBe(2);
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark as tried' }).count()).toBe(0);
    await cards(page).filter({ hasText: 'Lagavulin 16' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('shows initials without an avatar, and the Back to following link goes to /following', async () => {
    const page = await openAs('rowan', '/users/rowan');
    const about = hero(page, 'rowan');
    await about.waitFor();
    expect(await about.locator('.avatar').textContent()).toBe('RO');
    expect(await about.locator('img').count()).toBe(0);
    expect(await about.getByText('No bio yet.').isVisible()).toBe(true);
    await page.getByText('No entries recorded yet.').waitFor();

    await page.getByRole('link', { name: 'Back to following' }).click();
    expect(await headingText(page)).toBe('Following');
    expect(pathOf(page)).toBe('/following');
  });

  it('says Profile not found. for an unknown user and Username is required without one', async () => {
    const page = await openAs('rowan', '/users/nobody_here');
    await page.getByRole('alert').getByText('Profile not found.', { exact: true }).waitFor();
    expect(await page.getByRole('region', { name: 'Vault entries' }).count()).toBe(0);

    for (const path of ['/users/', '/users/%20']) {
      await page.goto(path);
      await page.getByRole('alert').getByText('Username is required', { exact: true }).waitFor();
      expect(pathOf(page)).toBe(path);
    }
  });

  it('says Unable to load vault entries. when the entries cannot be loaded', async () => {
    const page = await openAs('rowan', '/users/hazel', (p) =>
      p.route('**/api/beverages?*', (route) =>
        route.fulfill({ status: 500, json: { message: 'Something broke' } }),
      ),
    );
    await hero(page, 'hazel').waitFor();
    await page.getByRole('alert').getByText('Unable to load vault entries.').waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
  });

  it("shows the user's entries read-only to an admin: no Edit, no 'Move to to-try'", async () => {
    const page = await openAs('admin', '/users/hazel');
    await cards(page).first().waitFor();
    expect(await cards(page).count()).toBe(2);
    expect(await cards(page).getByText('View only').count()).toBe(2);
    expect(await page.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Move to to-try' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark as tried' }).count()).toBe(0);
    await cards(page).filter({ hasText: 'Lagavulin 16' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
