import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { apiStatus, signIn } from '../helpers/browser.ts';
import { addVirtualAuthenticator } from './second-factor-helpers.ts';

/*
 * An admin sees and removes a user's security keys from the manage-user panel. The user
 * registers the key for real, from /profile, with Chromium's virtual authenticator (CDP); the
 * vault's origin is http://localhost:PORT so that it can be a WebAuthn relying party.
 */

const PASSWORD = 'long-enough-password';

const people = peopleInBrowsers(
  [{ username: 'hazel', password: PASSWORD, fullName: 'Hazel Barrel' }],
  { host: 'localhost' },
);

const note = (page: Page, text: string) =>
  page.locator('.note').filter({ has: page.getByText(text, { exact: true }) });
const keysRegion = (page: Page) => page.getByRole('region', { name: 'Security keys', exact: true });
const rowOf = (page: Page, username: string) =>
  page
    .getByRole('table', { name: 'User registry' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `@${username}`, exact: true }) });
const factorOf = (row: Locator) => row.locator('td[data-label="Second factor"]').textContent();

/** The user's own browser, on /profile, with a virtual security key plugged in. */
async function openUserProfile() {
  const session = await people.sessionAs('hazel', '/profile', {
    freshSignIn: true,
    prepare: (page) => addVirtualAuthenticator(page.context(), page),
  });
  await keysRegion(session.page).waitFor();
  return session.page;
}

/** Registers a key from /profile (the profile's own flow), with a nickname. */
async function registerKey(page: Page, nickname: string) {
  await keysRegion(page).getByRole('button', { name: 'Register a security key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register security key' });
  await dialog.getByLabel('Nickname (optional)').fill(nickname);
  await dialog.getByLabel('Current password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Register key' }).click();
  await note(page, 'Security key registered').waitFor();
}

async function openAdminPanel(username: string) {
  const page = await people.openAs('admin', '/admin', { freshSignIn: true });
  await page.getByRole('button', { name: `Manage ${username}`, exact: true }).click();
  const panel = page.getByRole('region', { name: /^Manage user / });
  await panel.getByRole('heading', { name: 'Security keys' }).waitFor();
  return { page, panel };
}

describe("an admin and a user's security keys", () => {
  it("lists the user's key by nickname and removes it after confirming", async () => {
    const user = await openUserProfile();
    await registerKey(user, 'Blue key');

    const { page, panel } = await openAdminPanel('hazel');
    // An admin removes someone else's key without a password prompt.
    expect((await factorOf(rowOf(page, 'hazel')))?.trim()).toBe('Security key');
    const keys = panel.getByRole('list', { name: 'Security keys of hazel' }).getByRole('listitem');
    await keys.first().waitFor();
    expect(await keys.count()).toBe(1);
    const text = (await keys.first().textContent()) ?? '';
    expect(text).toContain('Blue key');
    expect(text).toContain('Added ');
    expect(text).toContain('Never used');

    // Cancel keeps it.
    await panel.getByRole('button', { name: 'Remove Blue key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this security key?' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('“Blue key” is the last security key of hazel');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await keys.count()).toBe(1);

    await panel.getByRole('button', { name: 'Remove Blue key' }).click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await note(page, 'Security key removed').waitFor();
    await panel.getByText('No security keys registered yet.', { exact: true }).waitFor();
    // The last key gone, the security key is off: in the registry and on the server.
    expect((await factorOf(rowOf(page, 'hazel')))?.trim()).toBe('None');
    const users = await page.evaluate(async () => {
      const response = await fetch('/api/users', { credentials: 'include' });
      return (
        (await response.json()) as { users: { username: string; webauthnEnabled: boolean }[] }
      ).users;
    });
    expect(users.find((u) => u.username === 'hazel')?.webauthnEnabled).toBe(false);
    // All of hazel's sessions ended with it; the admin's goes on.
    expect(await apiStatus(user, '/api/auth/me')).toBe(401);
    expect(await apiStatus(page, '/api/auth/me')).toBe(200);

    // The password alone signs hazel in again.
    const fresh = await people.openPage();
    await signIn(fresh.page, 'hazel', PASSWORD);
    expect(await fresh.page.getByRole('dialog').count()).toBe(0);
  });

  it('says Failed to delete credential when the key is already gone, and lists what is left', async () => {
    const user = await openUserProfile();
    await registerKey(user, 'Spare key');
    const { page, panel } = await openAdminPanel('hazel');
    await panel.getByText('Spare key', { exact: true }).waitFor();

    // Meanwhile hazel removes the key herself.
    const own = keysRegion(user);
    await own.getByRole('button', { name: 'Remove Spare key' }).click();
    const ownConfirm = user.getByRole('dialog', { name: 'Remove this security key?' });
    await ownConfirm.getByLabel('Current password').fill(PASSWORD);
    await ownConfirm.getByRole('button', { name: 'Remove' }).click();
    await note(user, 'Security key removed').waitFor();

    await panel.getByRole('button', { name: 'Remove Spare key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this security key?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await confirm.getByRole('alert').waitFor();
    expect(await confirm.getByRole('alert').textContent()).toBe('Failed to delete credential');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    // The list was asked for again: the stale key is gone from it.
    await panel.getByText('No security keys registered yet.', { exact: true }).waitFor();
    expect(await panel.getByRole('list', { name: 'Security keys of hazel' }).count()).toBe(0);
  });

  it('asks an admin for their password to remove their own key', async () => {
    const page = await people.openAs('admin', '/profile', {
      freshSignIn: true,
      prepare: (page) => addVirtualAuthenticator(page.context(), page),
    });
    await keysRegion(page).getByRole('button', { name: 'Register a security key' }).click();
    const register = page.getByRole('dialog', { name: 'Register security key' });
    await register.getByLabel('Nickname (optional)').fill('Admin key');
    await register.getByLabel('Current password').fill(people.server.adminPassword);
    await register.getByRole('button', { name: 'Register key' }).click();
    await note(page, 'Security key registered').waitFor();

    await page.goto('/admin');
    await page
      .getByRole('button', { name: `Manage ${people.server.adminUsername}`, exact: true })
      .click();
    const panel = page.getByRole('region', { name: /^Manage user / });
    await panel.getByRole('button', { name: 'Remove Admin key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this security key?' });
    await confirm.getByLabel('Current password').fill('not-the-password');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect
      .poll(() => confirm.getByRole('alert').textContent())
      .toBe('Current password is incorrect');
    expect(await panel.getByText('Admin key', { exact: true }).isVisible()).toBe(true);

    await confirm.getByLabel('Current password').fill(people.server.adminPassword);
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await note(page, 'Security key removed').waitFor();
    await panel.getByText('No security keys registered yet.', { exact: true }).waitFor();
    expect(await apiStatus(page, '/api/auth/me')).toBe(200);
  });
});
