import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { wrongTotpCode } from '../helpers/second-factor.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { apiStatus, submitLogin } from '../helpers/browser.ts';
import {
  addVirtualAuthenticator,
  enableTotp,
  registerSoftKey,
  type TotpClock,
} from './second-factor-helpers.ts';

/*
 * The second-factor prompts of the login screen, answered by the real server: 'maple' has the
 * authenticator app on, 'rowan' a security key. The origin is http://localhost:PORT, where
 * WebAuthn works.
 */

const PASSWORD = 'long-enough-password';

const people = peopleInBrowsers(
  [
    { username: 'maple', password: PASSWORD },
    { username: 'rowan', password: PASSWORD },
  ],
  { host: 'localhost' },
);
let mapleClock: TotpClock;

beforeAll(async () => {
  [{ clock: mapleClock }] = await Promise.all([
    enableTotp(people.server, 'maple', PASSWORD),
    registerSoftKey(people.server, 'rowan', PASSWORD),
  ]);
});

/** Whether the focused element is inside the open dialog. */
const focusInDialog = async (page: Page) =>
  (await page.locator('[role="dialog"] :focus').count()) === 1;

describe('dialogs', () => {
  it('keeps focus inside the authenticator dialog and cancels it with Escape', async () => {
    const { page } = await people.openPage();
    await submitLogin(page, 'maple', PASSWORD);

    const dialog = page.getByRole('dialog', { name: 'Authenticator verification' });
    await dialog.waitFor();
    const code = dialog.getByLabel('Authentication code');
    await expect.poll(() => code.and(page.locator(':focus')).count()).toBe(1);

    // Tab and Shift+Tab go round the dialog's controls and never leave it.
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog(page)).toBe(true);
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInDialog(page)).toBe(true);
    }

    const submit = dialog.getByRole('button', { name: 'Verify and continue' });
    await code.fill('123 456');
    expect(await code.inputValue()).toBe('123456');
    await code.fill('12a-34 5');
    expect(await code.inputValue()).toBe('12345');
    expect(await submit.isDisabled()).toBe(true);
    await code.fill('1234567');
    expect(await code.inputValue()).toBe('123456');
    expect(await submit.isEnabled()).toBe(true);

    await dialog.getByRole('button', { name: 'Use backup code' }).click();
    const backup = dialog.getByLabel('Backup code');
    expect(await backup.inputValue()).toBe('');
    await backup.fill('ab12-cd3!');
    expect(await backup.inputValue()).toBe('AB12-CD3');
    expect(await submit.isEnabled()).toBe(true);
    await backup.fill(' ab1-2 ');
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Use authenticator code' }).click();
    expect(await code.inputValue()).toBe('');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').textContent()).toBe('TOTP verification cancelled');
    expect(await page.getByRole('button', { name: 'Log In' }).isEnabled()).toBe(true);
    expect(await apiStatus(page, '/api/auth/me')).toBe(401);
  });

  it("shows the server's refusal of a wrong code and Verifying… while it checks", async () => {
    const { page } = await people.openPage();
    await submitLogin(page, 'maple', PASSWORD);
    const dialog = page.getByRole('dialog', { name: 'Authenticator verification' });
    const code = dialog.getByLabel('Authentication code');

    // Hold the answer to see the button while the code is checked.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/login/totp', async (route) => {
      await held;
      await route.continue();
    });
    await code.fill(wrongTotpCode(mapleClock.secret, Date.now()));
    await dialog.getByRole('button', { name: 'Verify and continue' }).click();
    const verifying = dialog.getByRole('button', { name: 'Verifying…' });
    await verifying.waitFor();
    expect(await verifying.isDisabled()).toBe(true);
    release();

    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).toBe('Invalid authentication code');
    await page.unroute('**/api/auth/login/totp');
  });

  it('says Login session expired when a code is accepted but no user comes back', async () => {
    const { page } = await people.openPage();
    // The real server always sends the user; drop it from its real answer.
    await page.route('**/api/auth/login/totp', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: {} });
    });
    await submitLogin(page, 'maple', PASSWORD);
    const dialog = page.getByRole('dialog', { name: 'Authenticator verification' });
    await dialog.getByLabel('Authentication code').fill(await mapleClock.next());
    await dialog.getByRole('button', { name: 'Verify and continue' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').textContent()).toBe('Login session expired');
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
  });

  it('opens the security-key prompt, cancels it with Escape and offers the password', async () => {
    const { page, context } = await people.openPage();
    // A key nobody touches: the ceremony waits.
    await addVirtualAuthenticator(context, page, { presence: false });
    await submitLogin(page, 'rowan', PASSWORD);

    const dialog = page.getByRole('dialog', { name: 'Use your security key' });
    await dialog.waitFor();
    expect(await dialog.getByText('Waiting for security key...').isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Cancel' }).count()).toBe(1);
    expect(await dialog.getByRole('button', { name: 'Retry' }).isDisabled()).toBe(true);
    expect(await focusInDialog(page)).toBe(true);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('alert').textContent()).toBe(
      'Security key verification was cancelled',
    );
    expect(await apiStatus(page, '/api/auth/me')).toBe(401);

    // Password sign-in instead: the prompt closes and the password field is empty again.
    await submitLogin(page, 'rowan', PASSWORD);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Sign in with password instead' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it("shows the key library's error, then Retry runs the ceremony again", async () => {
    const { page, context } = await people.openPage();
    // This browser's key is not the one registered: touching it cannot sign in.
    await addVirtualAuthenticator(context, page, { presence: true });
    // Counts the ceremonies the page starts (navigator.credentials.get calls).
    await page.addInitScript(`(() => {
      const get = navigator.credentials.get.bind(navigator.credentials);
      window.__ceremonies = 0;
      navigator.credentials.get = (options) => { window.__ceremonies++; return get(options); };
    })()`);
    const ceremonies = () => page.evaluate('window.__ceremonies');
    await submitLogin(page, 'rowan', PASSWORD);

    const dialog = page.getByRole('dialog', { name: 'Use your security key' });
    await dialog.waitFor();
    const error = dialog.getByRole('alert');
    await error.waitFor();
    const message = await error.textContent();
    expect(message).toBeTruthy();
    const retry = dialog.getByRole('button', { name: 'Retry' });
    expect(await retry.isEnabled()).toBe(true);

    // Retry starts a new ceremony (the old error goes), which fails the same way.
    const before = (await ceremonies()) as number;
    await retry.click();
    await expect.poll(ceremonies).toBe(before + 1);
    await error.waitFor();
    expect(await error.textContent()).toBe(message);
    expect(await apiStatus(page, '/api/auth/me')).toBe(401);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
