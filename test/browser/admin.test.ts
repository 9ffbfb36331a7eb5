import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { apiStatus, pathOf, signIn, submitLogin } from '../helpers/browser.ts';

/*
 * The Admin Console (/admin): the user registry, the provision-user form and the manage-user
 * panel, against the real server in Chromium. (A plain user sent from /admin to / is covered by
 * navigation.test.ts.)
 */

const PASSWORD = 'long-enough-password';

const people = peopleInBrowsers([
  { username: 'carol', password: PASSWORD, fullName: 'Carol Cask' },
  { username: 'dave', password: PASSWORD, fullName: 'Dave Dram' },
]);

beforeAll(async () => {
  const carol = (await people.server.ctx.users.findByUsername('carol'))!;
  await people.server.ctx.tokens.create(carol, { name: 'Cellar sheet', scope: 'read' });
});

const region = (page: Page, name: string | RegExp) =>
  page.getByRole('region', { name, exact: typeof name === 'string' });
/** The success note (or error banner) with exactly this text. */
const note = (page: Page, text: string) =>
  page.locator('.note').filter({ has: page.getByText(text, { exact: true }) });
const registry = (page: Page) => page.getByRole('table', { name: 'User registry' });
const rowOf = (page: Page, username: string) =>
  registry(page)
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `@${username}`, exact: true }) });
const managePanel = (page: Page) => region(page, /^Manage user /);

async function openAdmin(options: { width?: number } = {}) {
  const { page } = await people.sessionAs('admin', '/admin', options);
  await registry(page).waitFor();
  return page;
}

async function openManage(page: Page, username: string): Promise<Locator> {
  await page.getByRole('button', { name: `Manage ${username}`, exact: true }).click();
  const panel = managePanel(page);
  await panel.waitFor();
  return panel;
}

/** The cells of a registry row, by column: User, Email, Role, Second factor, Created. */
async function cellsOf(row: Locator): Promise<string[]> {
  return row.locator('th, td').evaluateAll((cells) =>
    cells.map((cell) => {
      // What is read out: decorative parts (the avatar's initials) are left out.
      const copy = cell.cloneNode(true) as typeof cell;
      for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
      return copy.textContent?.trim() ?? '';
    }),
  );
}

/** POST /api/users requests the page sends from now on. */
function watchCreates(page: Page) {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/users') {
      sent.push(request.postData() ?? '');
    }
  });
  return sent;
}

describe('the Admin Console', () => {
  it('lists every user with their role, second factor, token count and created date', async () => {
    const page = await openAdmin();
    const headers = await registry(page).getByRole('columnheader').allTextContents();
    expect(headers.map((text) => text.trim())).toEqual([
      'User',
      'Email',
      'Role',
      'Second factor',
      'Tokens',
      'Created',
      'Actions',
    ]);

    const today = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date());
    // The counts come from every user's tokens, asked for beside the registry.
    await expect.poll(async () => (await cellsOf(rowOf(page, 'carol')))[4]).toBe('1');
    const [user, email, role, factor, , created] = await cellsOf(rowOf(page, 'carol'));
    expect(user).toBe('Carol Cask@carol');
    expect(email).toBe('carol@example.com');
    expect(role).toBe('Vault User');
    expect(factor).toBe('None');
    expect(created).toBe(today);
    expect((await cellsOf(rowOf(page, people.server.adminUsername)))[2]).toBe('System Admin');

    // The filter narrows the list; nothing matching says so.
    const filter = page.getByLabel('Filter users');
    await filter.fill('cask');
    await expect.poll(() => registry(page).getByRole('row').count()).toBe(2);
    await filter.fill('nobody-at-all');
    await page.getByText('No users found.', { exact: true }).waitFor();
    await filter.fill('');

    // A username links to the public profile.
    await rowOf(page, 'dave').getByRole('link', { name: '@dave' }).click();
    await page.getByRole('heading', { level: 1, name: 'dave' }).waitFor();
    expect(pathOf(page)).toBe('/users/dave');
  });

  it('provisions a user, who then signs in with that password in a fresh browser', async () => {
    const page = await openAdmin();
    const form = region(page, 'Provision a user');
    const creates = watchCreates(page);

    // Every field is required, and nothing is sent until they are filled in.
    await form.getByRole('button', { name: 'Create user' }).click();
    for (const message of [
      'Username is required',
      'Full name is required',
      'Email is required',
      'Password is required',
    ]) {
      expect(await form.getByText(message, { exact: true }).isVisible()).toBe(true);
    }
    expect(await page.locator(':focus').getAttribute('name')).toBe('username');
    expect(creates).toEqual([]);

    await form.getByLabel('Username').fill('bob');
    await form.getByLabel('Full name').fill('Bob Barley');
    await form.getByLabel('Email').fill('bob@example.com');
    await form.getByLabel('Password').fill('bobs-own-password');
    expect(await form.getByLabel('Role').inputValue()).toBe('USER');
    expect(await form.getByLabel('Role').locator('option').allTextContents()).toEqual([
      'Vault User',
      'System Admin',
    ]);
    await form.getByRole('button', { name: 'Create user' }).click();

    await note(page, 'Created user bob').waitFor();
    expect(creates).toHaveLength(1);
    expect(JSON.parse(creates[0]!)).toEqual({
      username: 'bob',
      fullName: 'Bob Barley',
      email: 'bob@example.com',
      password: 'bobs-own-password',
      role: 'USER',
    });
    // The registry shows the new user, and the form is ready for the next one.
    const [user, email, role, factor] = await cellsOf(rowOf(page, 'bob'));
    expect([user, email, role, factor]).toEqual([
      'Bob Barley@bob',
      'bob@example.com',
      'Vault User',
      'None',
    ]);
    expect(await form.getByLabel('Username').inputValue()).toBe('');
    expect(await form.getByLabel('Password').inputValue()).toBe('');

    const bob = await people.openPage();
    await signIn(bob.page, 'bob', 'bobs-own-password');
    expect(await bob.page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    expect(await bob.page.getByRole('link', { name: 'Admin Console' }).count()).toBe(0);
  });

  it("shows the server's refusal of a taken or badly formed username", async () => {
    const page = await openAdmin();
    const form = region(page, 'Provision a user');
    const rows = await registry(page).getByRole('row').count();
    await form.getByLabel('Username').fill('carol');
    await form.getByLabel('Full name').fill('Another Carol');
    await form.getByLabel('Email').fill('carol2@example.com');
    await form.getByLabel('Password').fill('long-enough-password');
    await form.getByLabel('Role').selectOption({ label: 'System Admin' });
    await form.getByRole('button', { name: 'Create user' }).click();
    await form.getByText('The username carol is already taken', { exact: true }).waitFor();

    await form.getByLabel('Username').fill('Not Valid!');
    await form.getByRole('button', { name: 'Create user' }).click();
    await form
      .getByText('Username must be 3 to 30 characters: lowercase letters, digits or underscores', {
        exact: true,
      })
      .waitFor();
    // Nothing was created, and what was typed is still there to correct.
    expect(await registry(page).getByRole('row').count()).toBe(rows);
    expect(await form.getByLabel('Full name').inputValue()).toBe('Another Carol');
  });

  it('resets a password from the manage panel: the old one fails and the new one works', async () => {
    // Carol is signed in elsewhere; the reset ends that session.
    const carol = await people.sessionAs('carol', '/', { freshSignIn: true });

    const page = await openAdmin();
    const panel = await openManage(page, 'carol');
    expect(await panel.getByLabel('Full name').inputValue()).toBe('Carol Cask');
    expect(await panel.getByLabel('Email').inputValue()).toBe('carol@example.com');
    expect(await panel.getByLabel('Role').inputValue()).toBe('USER');
    // Focus moved to the panel's heading.
    expect(await page.locator(':focus').textContent()).toBe('Carol Cask');

    // A blank password is not sent: the details change and the password stays.
    const patches: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.postDataJSON());
    });
    await panel.getByLabel('Email').fill('carol@cellar.example');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await note(page, 'Updated carol').waitFor();
    expect(patches).toEqual([
      { fullName: 'Carol Cask', email: 'carol@cellar.example', role: 'USER' },
    ]);
    expect((await cellsOf(rowOf(page, 'carol')))[1]).toBe('carol@cellar.example');
    expect(await apiStatus(carol.page, '/api/auth/me')).toBe(200);

    await panel.getByLabel('Reset password (optional)').fill('carols-new-password');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await note(page, 'Updated carol and reset password').waitFor();
    expect(patches[1]).toMatchObject({ password: 'carols-new-password' });
    expect(await panel.getByLabel('Reset password (optional)').inputValue()).toBe('');
    expect(await apiStatus(carol.page, '/api/auth/me')).toBe(401);

    const fresh = await people.openPage();
    await submitLogin(fresh.page, 'carol', PASSWORD);
    await fresh.page.getByRole('alert').getByText('Invalid username or password').waitFor();
    expect(await fresh.page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await signIn(fresh.page, 'carol', 'carols-new-password');
    expect(pathOf(fresh.page)).toBe('/');
  });

  it('makes a user a System Admin and back, and refuses to demote the last admin', async () => {
    const page = await openAdmin();
    let panel = await openManage(page, 'dave');
    await panel.getByLabel('Role').selectOption({ label: 'System Admin' });
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await note(page, 'Updated dave').waitFor();
    expect((await cellsOf(rowOf(page, 'dave')))[2]).toBe('System Admin');
    expect(await panel.locator('span', { hasText: /^System Admin$/ }).isVisible()).toBe(true);

    // Dave sees the Admin Console now.
    const dave = await people.sessionAs('dave', '/admin', { freshSignIn: true });
    await dave.page.getByRole('heading', { level: 1, name: 'Admin Console' }).waitFor();

    await panel.getByLabel('Role').selectOption({ label: 'Vault User' });
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await note(page, 'Updated dave').waitFor();
    await expect.poll(async () => (await cellsOf(rowOf(page, 'dave')))[2]).toBe('Vault User');

    // The signed-in admin is the only admin left: the server refuses, nothing changes.
    await panel.getByRole('button', { name: 'Close the manage-user panel' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(await page.locator(':focus').getAttribute('aria-label')).toBe('Manage dave');
    panel = await openManage(page, people.server.adminUsername);
    await panel.getByLabel('Full name').fill('Head Cellarer');
    // The first admin's email is left as created: it must pass the edit rules as it is.
    await panel.getByLabel('Role').selectOption({ label: 'Vault User' });
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await panel.getByText('The last admin cannot be demoted', { exact: true }).waitFor();
    expect((await cellsOf(rowOf(page, people.server.adminUsername)))[2]).toBe('System Admin');
    expect(pathOf(page)).toBe('/admin');

    // Editing oneself updates the signed-in user: the header's menu follows the new name.
    await panel.getByLabel('Role').selectOption({ label: 'System Admin' });
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await note(page, `Updated ${people.server.adminUsername}`).waitFor();
    await page.getByRole('button', { name: 'Account menu for Head Cellarer' }).waitFor();
    expect(await panel.getByRole('alert').count()).toBe(0);
  });

  it('shows each user as a card on a narrow screen', async () => {
    const page = await openAdmin({ width: 390 });
    const row = rowOf(page, 'carol');
    expect(
      await row.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).display),
    ).toBe('grid');
    const box = (await row.boundingBox())!;
    expect(box.width).toBeLessThan(390);
    // Each value says what it is, and Manage sits beside the name.
    expect(
      await row
        .locator('td[data-label="Role"]')
        .evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el, '::before').content),
    ).toBe('"Role"');
    await openManage(page, 'carol');
    const overflow = await page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
