import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { apiStatus, signIn, submitLogin } from '../helpers/browser.ts';
import { jpeg } from '../helpers/images.ts';
import { loadedWidth, recordForms, sentForms } from './vault-seed.ts';

/* /profile: personal details, avatar, bio, the fediverse switch, password and sessions. */

const PASSWORD = 'long-enough-password';

const people = peopleInBrowsers([
  { username: 'hazel', password: PASSWORD, fullName: 'Hazel Barrel' },
  ...['rowan', 'sorrel', 'juniper', 'maple'].map((username) => ({ username, password: PASSWORD })),
]);

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const note = (page: Page, text: string) => page.locator('.note').filter({ hasText: text });

async function openProfile(username: string, prepare?: (page: Page) => Promise<unknown>) {
  const page = await people.openAs(username, '/profile', { freshSignIn: true, prepare });
  await region(page, 'Personal details').waitFor();
  return page;
}

/** PATCH /api/users/me requests the page sends from now on. */
function watchProfileSaves(page: Page) {
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().endsWith('/api/users/me')) {
      saves.push(request.url());
    }
  });
  return saves;
}

describe('profile', () => {
  it('edits the name, email, bio and avatar, and the header follows', async () => {
    const page = await openProfile('hazel', recordForms);
    const details = region(page, 'Personal details');
    const header = page.getByRole('banner');
    await details.getByLabel('Full name').fill('Hazel Barrelhouse');
    await details.getByLabel('Email').fill('hazel@vault.example');
    await details.getByLabel('Bio').fill('Peated Islay malts and Belgian sours.');

    // Only images: anything else is refused before it is sent.
    const avatar = details.getByLabel('Avatar');
    await avatar.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    expect(await details.getByRole('alert').textContent()).toBe('The avatar must be an image file');
    await avatar.setInputFiles({
      name: 'me.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg(320, 320),
    });
    expect(await details.getByRole('alert').count()).toBe(0);
    await loadedWidth(details.getByRole('img', { name: 'Preview of the new avatar' }));

    await details.getByRole('button', { name: 'Save details' }).click();
    await note(page, 'Profile updated').waitFor();
    const [save] = (await sentForms(page)).filter((form) => form.url === '/api/users/me');
    expect(save).toMatchObject({ method: 'PATCH' });
    expect(save!.fields.sort()).toEqual(['avatar', 'bio', 'email', 'fullName']);

    // The header (and the page) show the new name and the stored avatar.
    await header.getByRole('button', { name: 'Account menu for Hazel Barrelhouse' }).waitFor();
    expect(await loadedWidth(header.locator('img.avatar'))).toBeGreaterThan(0);
    expect(await loadedWidth(page.locator('.account-summary img.avatar'))).toBeGreaterThan(0);

    await page.reload();
    await details.waitFor();
    expect(await details.getByLabel('Full name').inputValue()).toBe('Hazel Barrelhouse');
    expect(await details.getByLabel('Email').inputValue()).toBe('hazel@vault.example');
    expect(await details.getByLabel('Bio').inputValue()).toBe(
      'Peated Islay malts and Belgian sours.',
    );

    // Blank name and email are not sent, and stay as they were.
    await details.getByLabel('Full name').fill('  ');
    await details.getByLabel('Email').fill('');
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(async () => (await sentForms(page)).length).toBe(1);
    expect((await sentForms(page))[0]!.fields.sort()).toEqual(['bio']);
    await expect.poll(() => details.getByLabel('Full name').inputValue()).toBe('Hazel Barrelhouse');
    expect(await details.getByLabel('Email').inputValue()).toBe('hazel@vault.example');

    // Removing the avatar brings back the initials.
    await details.getByRole('button', { name: 'Remove avatar' }).click();
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(() => header.locator('img.avatar').count()).toBe(0);
    expect(await header.locator('.avatar').textContent()).toBe('HB');
  });

  it('shows each password rule in turn and sends nothing until they hold', async () => {
    const page = await openProfile('rowan');
    const saves = watchProfileSaves(page);
    const form = region(page, 'Change password');
    const submit = form.getByRole('button', { name: 'Update password' });
    const error = form.getByRole('alert');

    await submit.click();
    expect(await error.textContent()).toBe('Current password is required');
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel('New password', { exact: true }).fill('short');
    await submit.click();
    expect(await error.textContent()).toBe('New password must be at least 8 characters long');
    await form.getByLabel('New password', { exact: true }).fill('a-new-password');
    await form.getByLabel('Confirm new password').fill('a-new-passwort');
    await submit.click();
    expect(await error.textContent()).toBe('New password and confirmation do not match');
    expect(saves).toEqual([]);

    // The server checks the current password.
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('Confirm new password').fill('a-new-password');
    await submit.click();
    await expect.poll(() => error.textContent()).toBe('Current password is incorrect');
    expect(saves).toHaveLength(1);
  });

  it('changes the password, ending the other sessions, and signs in with the new one', async () => {
    const other = await people.sessionAs('sorrel', '/', { freshSignIn: true });
    const page = await openProfile('sorrel');
    const sessions = region(page, 'Session info');
    const others = sessions.getByRole('list', { name: 'Other active sessions' });
    await expect.poll(() => others.getByRole('listitem').count()).toBe(1);

    const form = region(page, 'Change password');
    await form.getByLabel('Current password').fill(PASSWORD);
    await form.getByLabel('New password', { exact: true }).fill('brand-new-password');
    await form.getByLabel('Confirm new password').fill('brand-new-password');
    await form.getByRole('button', { name: 'Update password' }).click();
    await note(page, 'Password updated').waitFor();
    expect(await form.getByLabel('Current password').inputValue()).toBe('');
    await sessions.getByText('You are not signed in anywhere else.').waitFor();
    expect(await apiStatus(other.page, '/api/auth/me')).toBe(401);
    expect(await apiStatus(page, '/api/auth/me')).toBe(200);

    const fresh = await people.openPage();
    try {
      await submitLogin(fresh.page, 'sorrel', PASSWORD);
      await fresh.page.getByRole('alert').waitFor();
      expect(await fresh.page.getByRole('alert').textContent()).toBe(
        'Invalid username or password',
      );
      await signIn(fresh.page, 'sorrel', 'brand-new-password');
      expect(fresh.pageErrors).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it('shows when this session started and expires, and ends another session', async () => {
    const other = await people.sessionAs('juniper', '/', { freshSignIn: true });
    const page = await openProfile('juniper');
    const sessions = region(page, 'Session info');
    await sessions.getByText('This session started').waitFor();
    expect(await sessions.getByText('It expires').isVisible()).toBe(true);

    const item = sessions
      .getByRole('list', { name: 'Other active sessions' })
      .getByRole('listitem');
    expect(await item.textContent()).toMatch(/Chrome on Linux.*127\.0\.0\.1.*Last used/);
    await item.getByRole('button', { name: /^Sign out / }).click();
    await note(page, 'Session ended').waitFor();
    await sessions.getByText('You are not signed in anywhere else.').waitFor();
    expect(await apiStatus(other.page, '/api/auth/me')).toBe(401);
    expect(await apiStatus(page, '/api/auth/me')).toBe(200);
  });

  it('counts the bio up to 280 characters and refuses the 281st', async () => {
    const page = await openProfile('maple');
    const details = region(page, 'Personal details');
    const bio = details.getByLabel('Bio');
    expect(await details.getByText('0/280').isVisible()).toBe(true);

    await bio.fill('x'.repeat(279));
    expect(await details.getByText('279/280').isVisible()).toBe(true);
    await bio.press('End');
    await page.keyboard.type('yz');
    expect(await bio.inputValue()).toBe(`${'x'.repeat(279)}y`);
    expect(await details.getByText('280/280').isVisible()).toBe(true);
    // Pasted text is cut at 280 characters too.
    await bio.fill('é'.repeat(300));
    expect([...(await bio.inputValue())]).toHaveLength(280);

    await details.getByRole('button', { name: 'Save details' }).click();
    await note(page, 'Profile updated').waitFor();
    const me = await page.request.get('/api/auth/me');
    expect([...((await me.json()) as { user: { bio: string } }).user.bio]).toHaveLength(280);
  });

  it('shows the fediverse handle while sharing on the fediverse is on', async () => {
    const page = await openProfile('maple');
    const details = region(page, 'Personal details');
    const toggle = details.getByRole('switch', { name: 'Share on the fediverse' });
    const handle = `@maple@${new URL(people.server.url).host}`;
    expect(await toggle.isChecked()).toBe(false);
    expect(await details.getByText(handle).count()).toBe(0);

    await toggle.click();
    await details.getByText(handle).waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await note(page, 'Profile updated').waitFor();

    await toggle.click();
    await expect.poll(() => details.getByText(handle).count()).toBe(0);
    expect(await toggle.isChecked()).toBe(false);
  });
});
