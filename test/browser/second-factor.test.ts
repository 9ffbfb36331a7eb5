import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { apiStatus, pathOf, signIn, submitLogin } from '../helpers/browser.ts';
import { loadedWidth } from './vault-seed.ts';
import { addVirtualAuthenticator, enableTotp, totpClock } from './second-factor-helpers.ts';

/*
 * Security keys and the authenticator app from /profile, and signing in with them: the real
 * server, real Chromium, real WebAuthn ceremonies (Chromium's virtual authenticator) and TOTP
 * codes from Debian's oathtool. WebAuthn needs a secure context whose host name can be a
 * relying party id: the vault's origin is http://localhost:PORT here.
 */

const PASSWORD = 'long-enough-password';

const people = peopleInBrowsers(
  ['hazel', 'rowan', 'sorrel', 'juniper', 'maple', 'alder'].map((username) => ({
    username,
    password: PASSWORD,
  })),
  { host: 'localhost' },
);

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The note (success) or banner (error) with exactly this text. */
const note = (page: Page, text: string) => page.locator('.note').filter({ hasText: text });

async function signOut(page: Page) {
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Log In' }).waitFor();
}

async function openProfile(username: string, options: { authenticator?: boolean } = {}) {
  let key: Awaited<ReturnType<typeof addVirtualAuthenticator>> | undefined;
  const session = await people.sessionAs(username, '/profile', {
    freshSignIn: true,
    prepare: async (page) => {
      if (options.authenticator) key = await addVirtualAuthenticator(page.context(), page);
    },
  });
  await region(session.page, 'Security keys').waitFor();
  return { page: session.page, key };
}

/** Registers a key from the profile page, with an optional nickname. */
async function registerKey(page: Page, nickname?: string) {
  const keys = region(page, 'Security keys');
  await keys.getByRole('button', { name: 'Register a security key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Register security key' });
  if (nickname) await dialog.getByLabel('Nickname (optional)').fill(nickname);
  await dialog.getByLabel('Current password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Register key' }).click();
  await dialog.waitFor({ state: 'detached' });
  await note(page, 'Security key registered').waitFor();
  return keys;
}

const listedKeys = (keys: Locator) =>
  keys.getByRole('list', { name: 'Registered security keys' }).getByRole('listitem');

describe('security keys', () => {
  it('registers a key with a nickname, signs out and signs back in with the key', async () => {
    const { page } = await openProfile('hazel', { authenticator: true });
    const keys = region(page, 'Security keys');
    await keys.getByText('No security keys registered yet.').waitFor();

    await registerKey(page, 'Blue key');
    expect(await listedKeys(keys).count()).toBe(1);
    expect(await listedKeys(keys).first().textContent()).toContain('Blue key');
    expect(await listedKeys(keys).first().textContent()).toContain('Never used');
    expect(await keys.getByText('On', { exact: true }).isVisible()).toBe(true);
    // Only one second factor: the authenticator app cannot be set up now.
    const app = region(page, 'Authenticator app');
    expect(await app.getByRole('button', { name: 'Set up authenticator app' }).isDisabled()).toBe(
      true,
    );
    expect(await app.getByText(/Remove your security keys to set up/).isVisible()).toBe(true);

    await signOut(page);
    // The password alone does not sign in: the key prompt opens and the key answers it.
    const prompted = page.waitForResponse('**/api/webauthn/authentication/verify');
    // After the sign-in the keys are loaded (for the profile and the session).
    const keysLoaded = page.waitForResponse('**/api/webauthn/credentials');
    await submitLogin(page, 'hazel', PASSWORD);
    expect((await prompted).status()).toBe(200);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect((await keysLoaded).status()).toBe(200);
    expect(await apiStatus(page, '/api/auth/me')).toBe(200);

    await page.goto('/profile');
    await expect.poll(() => listedKeys(keys).first().textContent()).toMatch(/Blue key.*Last used/);
  });

  it('cancels the key prompt and stays signed out', async () => {
    const { page, key } = await openProfile('rowan', { authenticator: true });
    const keys = await registerKey(page);
    // Without a nickname the key is labelled by the first 8 characters of its id.
    const [stored] = await key!.credentials();
    expect(await listedKeys(keys).first().textContent()).toContain(
      stored!.credentialId.slice(0, 8),
    );
    await signOut(page);

    // Nobody touches the key: the ceremony waits until it is cancelled.
    await key!.setPresence(false);
    await submitLogin(page, 'rowan', PASSWORD);
    const prompt = page.getByRole('dialog', { name: 'Use your security key' });
    await prompt.waitFor();
    expect(await prompt.getByText('Waiting for security key...').isVisible()).toBe(true);
    await prompt.getByRole('button', { name: 'Cancel' }).click();
    await prompt.waitFor({ state: 'detached' });

    expect(await page.getByRole('alert').textContent()).toBe(
      'Security key verification was cancelled',
    );
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await apiStatus(page, '/api/auth/me')).toBe(401);

    // The password sign-in is offered again, and the key then works once touched.
    await key!.setPresence(true);
    await signIn(page, 'rowan', PASSWORD);
    expect(pathOf(page)).toBe('/');
  });

  it('removes a key after confirming, and the authenticator app can be set up again', async () => {
    const { page } = await openProfile('sorrel', { authenticator: true });
    const keys = await registerKey(page, 'Spare key');

    await keys.getByRole('button', { name: 'Remove Spare key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this security key?' });
    await confirm.waitFor();
    // Cancel keeps it.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await listedKeys(keys).count()).toBe(1);

    await keys.getByRole('button', { name: 'Remove Spare key' }).click();
    await confirm.getByLabel('Current password').fill(PASSWORD);
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await note(page, 'Security key removed').waitFor();
    expect(await keys.getByText('No security keys registered yet.').isVisible()).toBe(true);
    expect(await keys.getByText('Off', { exact: true }).isVisible()).toBe(true);
    const setUp = region(page, 'Authenticator app').getByRole('button', {
      name: 'Set up authenticator app',
    });
    expect(await setUp.isEnabled()).toBe(true);

    // The password alone signs in again.
    await signOut(page);
    await signIn(page, 'sorrel', PASSWORD);
  });
});

describe('authenticator app', () => {
  it('sets up the app from the QR code, secret and backup codes, and verifies a code', async () => {
    const { page } = await openProfile('juniper');
    const app = region(page, 'Authenticator app');
    await app.getByRole('button', { name: 'Set up authenticator app' }).click();

    // The current password first: the setup starts when the server has checked it.
    const dialog = page.getByRole('dialog', { name: 'Set up your authenticator app' });
    await dialog.getByLabel('Current password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Start setup' }).click();
    await dialog.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    expect(
      await dialog
        .getByText('Scan the QR code with your authenticator app to complete setup')
        .isVisible(),
    ).toBe(true);
    await note(page, 'Scan the QR code with your authenticator app to complete setup').waitFor();

    // The secret in groups of 4, the same as in the otpauth link, and a QR code that loads.
    const grouped = (await dialog.getByLabel('Secret key').textContent())!;
    expect(grouped).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    const secret = grouped.replaceAll(' ', '');
    const link = await dialog
      .getByRole('link', { name: 'Open in your authenticator app' })
      .getAttribute('href');
    expect(link).toMatch(/^otpauth:\/\/totp\/The%20Vault:juniper\?/);
    expect(new URL(link!).searchParams.get('secret')).toBe(secret);
    expect(
      await loadedWidth(dialog.getByRole('img', { name: 'QR code for your authenticator app' })),
    ).toBeGreaterThan(100);
    const codes = dialog.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
    expect(await codes.count()).toBe(10);
    expect(await dialog.getByText(/shown only this once/).isVisible()).toBe(true);

    // The code field: digits only, at most 6; Verify waits for exactly 6.
    const code = dialog.getByLabel('Authentication code');
    const verify = dialog.getByRole('button', { name: 'Verify' });
    await code.fill('12 a3-45');
    expect(await code.inputValue()).toBe('12345');
    expect(await verify.isDisabled()).toBe(true);
    await code.fill('1234567');
    expect(await code.inputValue()).toBe('123456');

    // Closed and opened again, the setup goes on with an empty code field.
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
    await app.getByRole('button', { name: 'Continue setup' }).click();
    expect(await code.inputValue()).toBe('');
    expect(await dialog.getByLabel('Secret key').textContent()).toBe(grouped);

    const clock = totpClock(secret);
    await code.fill(await clock.next());
    await verify.click();
    await dialog.getByRole('status').filter({ hasText: 'Authenticator app enabled' }).waitFor();
    await note(page, 'Authenticator app enabled').waitFor();
    expect(await dialog.getByRole('button', { name: 'Verified' }).isDisabled()).toBe(true);
    expect(await code.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await app.getByText('On', { exact: true }).isVisible()).toBe(true);

    // Only one second factor: registering a key is blocked, and says why.
    const register = region(page, 'Security keys').getByRole('button', {
      name: 'Register a security key',
    });
    expect(await register.isDisabled()).toBe(true);
    expect(
      await region(page, 'Security keys')
        .getByText(/Turn off the authenticator app to register a security key/)
        .isVisible(),
    ).toBe(true);
  });

  it('signs in with a code, then with a backup code, and refuses that backup code again', async () => {
    const { clock, backupCodes } = await enableTotp(people.server, 'maple', PASSWORD);
    const { page } = await people.openPage();
    const dialog = page.getByRole('dialog', { name: 'Authenticator verification' });

    await submitLogin(page, 'maple', PASSWORD);
    await dialog.getByLabel('Authentication code').fill(await clock.next());
    await dialog.getByRole('button', { name: 'Verify and continue' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await signOut(page);

    const backup = backupCodes[3]!;
    for (const attempt of ['first', 'second']) {
      await submitLogin(page, 'maple', PASSWORD);
      await dialog.getByRole('button', { name: 'Use backup code' }).click();
      await dialog.getByLabel('Backup code').fill(backup.toLowerCase());
      expect(await dialog.getByLabel('Backup code').inputValue()).toBe(backup);
      await dialog.getByRole('button', { name: 'Verify and continue' }).click();
      if (attempt === 'first') {
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        await signOut(page);
      }
    }
    // A backup code works once.
    expect(await dialog.getByRole('alert').textContent()).toBe('Invalid backup code');
    expect(await apiStatus(page, '/api/auth/me')).toBe(401);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('TOTP verification cancelled');
  });

  it('turns the app off with the password and a code', async () => {
    const { clock } = await enableTotp(people.server, 'alder', PASSWORD);
    const { page } = await people.openPage();
    await submitLogin(page, 'alder', PASSWORD);
    const prompt = page.getByRole('dialog', { name: 'Authenticator verification' });
    await prompt.getByLabel('Authentication code').fill(await clock.next());
    await prompt.getByRole('button', { name: 'Verify and continue' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.goto('/profile');

    const app = region(page, 'Authenticator app');
    const form = app.getByRole('form', { name: 'Turn off the authenticator app' });
    const password = form.getByLabel('Password');
    const code = form.getByLabel('Authentication code');
    const turnOff = form.getByRole('button', { name: 'Turn off' });
    let disableCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/totp/disable')) disableCalls++;
    });

    // The rules are checked before anything is sent.
    await password.fill('  short  ');
    await code.fill('123456');
    await turnOff.click();
    expect(await form.getByRole('alert').textContent()).toBe(
      'Password must be at least 8 characters long',
    );
    await password.fill(PASSWORD);
    await code.fill('12a34');
    expect(await code.inputValue()).toBe('1234');
    await turnOff.click();
    expect(await form.getByRole('alert').textContent()).toBe(
      'Enter the 6-digit code from your authenticator app',
    );
    expect(disableCalls).toBe(0);

    // The server's refusal is shown in the form (a refused attempt does not use the code up).
    const current = await clock.next();
    await password.fill('not-the-password');
    await code.fill(current);
    await turnOff.click();
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe('The password or the authentication code is not correct');

    await password.fill(PASSWORD);
    await code.fill(current);
    await turnOff.click();
    await note(page, 'Authenticator app disabled').waitFor();
    expect(await app.getByText('Off', { exact: true }).isVisible()).toBe(true);
    expect(
      await region(page, 'Security keys')
        .getByRole('button', { name: 'Register a security key' })
        .isEnabled(),
    ).toBe(true);

    await signOut(page);
    await signIn(page, 'alder', PASSWORD);
  });
});
