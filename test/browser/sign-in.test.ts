import { describe, expect, it } from 'vitest';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { apiStatus, pathOf, signIn, submitLogin } from '../helpers/browser.ts';

const people = peopleInBrowsers();

describe('signing in', () => {
  it('shows Booting the node... while the session is checked, then the login screen', async () => {
    const { page } = await people.openPage();
    // Hold GET /api/auth/me until the loading screen has been seen, then let it through.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/me', async (route) => {
      await held;
      await route.continue();
    });

    await page.goto('/');
    await page.getByText('Booting the node...').waitFor();
    expect(await page.getByLabel('Username').count()).toBe(0);

    release();
    await page.getByRole('button', { name: 'Log In' }).waitFor();
    expect(await page.getByText('Booting the node...').count()).toBe(0);
    expect(await page.getByLabel('Username').getAttribute('type')).toBe('text');
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('password');
  });

  it('signs the first admin in and shows the signed-in layout with their name', async () => {
    const { page } = await people.openPage();
    await signIn(page, people.server.adminUsername, people.server.adminPassword);

    const me = await page.request.get('/api/auth/me');
    const { user } = (await me.json()) as { user: { fullName: string } };
    const fullName = user.fullName;
    expect(fullName).toBeTruthy();
    expect(await page.getByRole('banner').textContent()).toContain(fullName);
    expect(pathOf(page)).toBe('/');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    expect(await page.getByRole('button', { name: 'Alerts, 0 pending' }).isVisible()).toBe(true);
  });

  it("shows the server's message when the password is wrong", async () => {
    const { page } = await people.openPage();
    await submitLogin(page, people.server.adminUsername, 'not the password');

    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe('Invalid username or password');
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await apiStatus(page, '/api/auth/me')).toBe(401);
  });

  it("sends an empty submit to the server (no client rules) and shows the server's message", async () => {
    const { page } = await people.openPage();
    await page.goto('/');
    const answer = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/auth/login' &&
        response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Log In' }).click();

    const response = await answer;
    expect(response.status()).toBe(401);
    const { message } = (await response.json()) as { message: string };
    expect(message).toBe('Invalid username or password');
    const error = page.getByRole('alert');
    await error.waitFor();
    expect(await error.textContent()).toBe(message);
    // The browser's own check stayed out of the way ('Please fill out this field.').
    for (const label of ['Username', 'Password']) {
      expect(
        await page
          .getByLabel(label)
          .evaluate((input) => Reflect.get(input, 'validationMessage') as string),
      ).toBe('');
    }
  });

  it('keeps the session across a reload', async () => {
    const { page } = await people.openPage();
    await signIn(page, people.server.adminUsername, people.server.adminPassword);
    await page.getByRole('link', { name: 'Cellar' }).click();
    await page.reload();

    await page.getByRole('heading', { level: 1, name: 'Cellar' }).waitFor();
    expect(pathOf(page)).toBe('/cellar');
    expect(await page.getByRole('button', { name: 'Log In' }).count()).toBe(0);
  });
});
