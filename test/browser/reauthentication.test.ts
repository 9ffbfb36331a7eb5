import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { apiStatus } from '../helpers/browser.ts';
import { addVirtualAuthenticator } from './second-factor-helpers.ts';

/*
 * The profile's second-factor dialogs ask for the current password and show the server's answer
 * when it is missing or wrong; nothing changes then. Real server, real Chromium with its virtual
 * authenticator, on http://localhost:PORT (a WebAuthn relying party).
 */

const PASSWORD = 'long-enough-password';
const REQUIRED = 'Enter your current password to change your second factor.';
const WRONG = 'Current password is incorrect';

const people = peopleInBrowsers(
  ['ash', 'birch', 'cedar'].map((username) => ({ username, password: PASSWORD })),
  { host: 'localhost' },
);

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const note = (page: Page, text: string) => page.locator('.note').filter({ hasText: text });

/** /profile of a user, signed in, with a virtual security key plugged in. */
async function openProfile(username: string) {
  let key: Awaited<ReturnType<typeof addVirtualAuthenticator>> | undefined;
  const session = await people.sessionAs(username, '/profile', {
    freshSignIn: true,
    prepare: async (page) => {
      key = await addVirtualAuthenticator(page.context(), page);
    },
  });
  await region(session.page, 'Security keys').waitFor();
  return { page: session.page, key: key! };
}

/** The dialog's 'Current password' field, checked to be a real password field. */
async function passwordField(dialog: Locator) {
  const field = dialog.getByLabel('Current password');
  expect(await field.getAttribute('type')).toBe('password');
  expect(await field.getAttribute('autocomplete')).toBe('current-password');
  return field;
}

/** Submits and waits for the dialog's alert to say `message`. */
async function expectRefusal(dialog: Locator, submit: string, message: string) {
  await dialog.getByRole('button', { name: submit }).click();
  await expect.poll(() => dialog.getByRole('alert').textContent()).toBe(message);
}

describe('the dialogs that change the second factor', () => {
  it('asks for the password before the key ceremony and ends the other sessions', async () => {
    const { page, key } = await openProfile('ash');
    const elsewhere = await people.sessionAs('ash', '/', { freshSignIn: true });
    await region(page, 'Security keys')
      .getByRole('button', { name: 'Register a security key' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Register security key' });
    const password = await passwordField(dialog);

    // Left empty, then wrong: the server refuses before any key is asked for.
    await expectRefusal(dialog, 'Register key', REQUIRED);
    await password.fill('not-the-password');
    await expectRefusal(dialog, 'Register key', WRONG);
    expect(await key.credentials()).toEqual([]);

    await password.fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Register key' }).click();
    await note(page, 'Security key registered').waitFor();
    expect(await key.credentials()).toHaveLength(1);
    // The other browser's session ended; this one goes on.
    expect(await apiStatus(elsewhere.page, '/api/auth/me')).toBe(401);
    expect(await apiStatus(page, '/api/auth/me')).toBe(200);
  });

  it('asks for the password before the authenticator app setup starts', async () => {
    const { page } = await openProfile('birch');
    await region(page, 'Authenticator app')
      .getByRole('button', { name: 'Set up authenticator app' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Set up your authenticator app' });
    const password = await passwordField(dialog);
    await expect.poll(() => password.and(page.locator(':focus')).count()).toBe(1);

    await expectRefusal(dialog, 'Start setup', REQUIRED);
    await password.fill('not-the-password');
    await expectRefusal(dialog, 'Start setup', WRONG);
    expect(
      await dialog.getByRole('img', { name: 'QR code for your authenticator app' }).count(),
    ).toBe(0);

    await password.fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Start setup' }).click();
    await dialog.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await note(page, 'Scan the QR code with your authenticator app to complete setup').waitFor();
    // The code field is next.
    const code = dialog.getByLabel('Authentication code');
    await expect.poll(() => code.and(page.locator(':focus')).count()).toBe(1);
  });

  it('asks for the password in the removal confirmation and keeps the key on a wrong one', async () => {
    const { page, key } = await openProfile('cedar');
    const keys = region(page, 'Security keys');
    await keys.getByRole('button', { name: 'Register a security key' }).click();
    const register = page.getByRole('dialog', { name: 'Register security key' });
    await register.getByLabel('Nickname (optional)').fill('Red key');
    await register.getByLabel('Current password').fill(PASSWORD);
    await register.getByRole('button', { name: 'Register key' }).click();
    await note(page, 'Security key registered').waitFor();

    await keys.getByRole('button', { name: 'Remove Red key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this security key?' });
    const password = await passwordField(confirm);
    await password.fill('not-the-password');
    await expectRefusal(confirm, 'Remove', WRONG);
    expect(await keys.getByText('Red key', { exact: true }).isVisible()).toBe(true);
    expect(await key.credentials()).toHaveLength(1);

    await password.fill(PASSWORD);
    await password.press('Enter');
    await note(page, 'Security key removed').waitFor();
    await keys.getByText('No security keys registered yet.').waitFor();
  });
});
