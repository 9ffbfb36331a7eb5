import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { scrollWidth, smallTargets } from './phone-checks.ts';
import { seedEntry } from './vault-seed.ts';

/*
 * With the keyboard only (a control is reached and pressed, never clicked): every action that
 * takes away the focused element leaves focus inside its dialog or panel, never on the page's
 * body, and the dialog still closes on Escape; each action says what happened in a note; and
 * Revoke, Remove follower and Unblock server ask first.
 */

const people = peopleInBrowsers([
  ['fern', 'Fern Oak'],
  ['gale', 'Gale Wind'],
  ['hazel', 'Hazel Nut'],
  ['ivy', 'Ivy Moss'],
]);
const { openAs, userId } = people;

/** A write through the API from `page` (same origin, its cookies); its status. */
async function send(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) =>
      (
        await fetch(path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).status,
    { method, path, body },
  );
}

/** Whether focus is on `scope` or inside it (and so not left on the page's body). */
const focusInside = async (scope: Locator) =>
  (await scope.locator(':focus').count()) +
    (await scope.and(scope.page().locator(':focus')).count()) >
  0;

/** The name (aria-label) of the focused element. */
const focusedLabel = (page: Page) =>
  page.evaluate('document.activeElement?.getAttribute("aria-label")') as Promise<string | null>;

/** Waits for the success note that says `message`. */
const note = (page: Page, message: string | RegExp) =>
  page.locator('.note--success', { hasText: message }).waitFor();

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });
const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

describe('focus and feedback, keyboard only', () => {
  it("keeps focus in the entry's cellar dialog after Add bottles and Open the bottle", async () => {
    await seedEntry(people.server, 'fern', { name: 'Barolo Riserva', type: 'WINE' });
    const page = await openAs('fern', '/wine');
    await card(page, 'Barolo Riserva')
      .getByRole('button', { name: 'Bottles and tastings of Barolo Riserva' })
      .press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('No bottles yet.').waitFor();

    await dialog.getByRole('button', { name: 'Add bottles' }).press('Enter');
    await dialog.getByLabel('Quantity').fill('2');
    await dialog.getByRole('button', { name: 'Add bottles' }).press('Enter');
    await note(page, '2 bottles added');
    await dialog.getByText('2 bottles', { exact: true }).waitFor();
    await expect.poll(() => focusInside(dialog)).toBe(true);

    await dialog.getByRole('button', { name: /^Open a bottle: 2 × / }).press('Enter');
    await dialog.getByRole('button', { name: 'Open the bottle' }).press('Enter');
    await note(page, 'Bottle opened');
    await dialog.getByText('1 bottle', { exact: true }).waitFor();
    await expect.poll(() => focusInside(dialog)).toBe(true);

    // Escape closes the dialog wherever focus is, the page's body included.
    await page.evaluate('document.activeElement?.blur()');
    expect(await page.evaluate('document.activeElement === document.body')).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('keeps focus in the thread after deleting a comment and blocking its writer', async () => {
    for (const reader of ['gale', 'hazel']) {
      await people.server.ctx.follows.follow({ id: userId(reader) }, userId('fern'));
    }
    const entry = await seedEntry(people.server, 'fern', { name: 'Oyster Stout' });
    await people.server.ctx.outbox.idle();
    for (const [writer, content] of [
      ['gale', 'Roasty.'],
      ['hazel', 'Too sweet.'],
    ] as const) {
      const page = await openAs(writer, '/');
      expect(await send(page, 'POST', `/api/beverages/${entry.id}/comments`, { content })).toBe(
        201,
      );
    }

    const page = await openAs('fern', '/');
    await card(page, 'Oyster Stout')
      .getByRole('button', { name: /^Comments: Oyster Stout/ })
      .press('Enter');
    const thread = page.getByRole('dialog', { name: 'Comments' });
    const comment = (text: string) => thread.getByRole('listitem').filter({ hasText: text });
    await comment('Too sweet.').waitFor();

    await comment('Roasty.')
      .getByRole('button', { name: 'Delete comment by Gale Wind' })
      .press('Enter');
    await expect.poll(() => focusInside(comment('Roasty.'))).toBe(true);
    await comment('Roasty.').getByRole('button', { name: 'Yes, delete' }).press('Enter');
    await comment('Roasty.').waitFor({ state: 'detached' });
    await expect.poll(() => focusInside(thread)).toBe(true);

    await comment('Too sweet.').getByRole('button', { name: 'Block Hazel Nut' }).press('Enter');
    const ask = page.getByRole('dialog', { name: 'Block Hazel Nut?' });
    await ask.getByRole('button', { name: 'Block', exact: true }).press('Enter');
    await note(page, 'Blocked Hazel Nut');
    await thread.getByText('No comments yet.').waitFor();
    await expect.poll(() => focusInside(thread)).toBe(true);

    await page.keyboard.press('Escape');
    await thread.waitFor({ state: 'detached' });
  });

  it('says Unblocked, and asks before revoking a token, keeping focus in each panel', async () => {
    const page = await openAs('fern', '/profile');
    expect(await send(page, 'POST', '/api/users/blocks', { username: 'ivy' })).toBe(201);
    for (const name of ['Script one', 'Script two']) {
      expect(await send(page, 'POST', '/api/tokens', { name, scope: 'read' })).toBe(201);
    }
    await page.reload();

    const blocked = region(page, 'Blocked');
    await blocked.getByRole('button', { name: 'Unblock Ivy Moss' }).press('Enter');
    await note(page, 'Unblocked Ivy Moss');
    await blocked.getByRole('button', { name: 'Unblock Ivy Moss' }).waitFor({ state: 'detached' });
    await expect.poll(() => focusInside(blocked)).toBe(true);

    const tokens = region(page, 'Access tokens');
    const one = tokens.getByRole('listitem').filter({ hasText: 'Script one' });
    await one.getByRole('button', { name: 'Revoke Script one' }).press('Enter');
    // It asks first, with Cancel focused: Enter again does not revoke.
    await expect.poll(() => focusInside(one.getByRole('button', { name: 'Cancel' }))).toBe(true);
    await page.keyboard.press('Enter');
    await one.getByRole('button', { name: 'Revoke Script one' }).waitFor();
    await expect.poll(() => focusInside(one)).toBe(true);
    expect(await tokens.getByRole('listitem').count()).toBe(2);

    // The question fits a phone, its buttons a finger's size.
    await page.setViewportSize({ width: 390, height: 844 });
    await one.getByRole('button', { name: 'Revoke Script one' }).press('Enter');
    await one.getByRole('button', { name: 'Yes, revoke' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await smallTargets(page)).toEqual([]);
    await one.getByRole('button', { name: 'Yes, revoke' }).press('Enter');
    await note(page, 'Access token revoked');
    await one.waitFor({ state: 'detached' });
    await expect.poll(() => focusInside(tokens)).toBe(true);
  });

  it('says what following and removing a follower did; Remove asks first', async () => {
    await people.server.ctx.follows.follow({ id: userId('ivy') }, userId('gale'));
    const page = await openAs('gale', '/following');
    const followers = region(page, 'Followers');
    await followers.getByRole('button', { name: 'Follow Ivy Moss' }).press('Enter');
    await note(page, /^(You now follow|Follow request sent to) Ivy Moss$/);
    await expect.poll(() => focusInside(followers)).toBe(true);

    await page.setViewportSize({ width: 390, height: 844 });
    await followers.getByRole('button', { name: 'Remove follower Ivy Moss' }).press('Enter');
    await followers.getByRole('button', { name: 'Yes, remove' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await smallTargets(page)).toEqual([]);
    await followers.getByRole('button', { name: 'Yes, remove' }).press('Enter');
    await note(page, 'Ivy Moss no longer follows you');
    await followers.getByText('No followers yet.').waitFor();
    await expect.poll(() => focusInside(followers)).toBe(true);
  });

  it('on a profile page, Follow, Block and Unblock hand focus to the button taking their place', async () => {
    const page = await openAs('hazel', '/users/ivy');

    await page.getByRole('button', { name: 'Follow Ivy Moss' }).press('Enter');
    await note(page, /^(You now follow|Follow request sent to) Ivy Moss$/);
    await expect
      .poll(() => focusedLabel(page))
      .toMatch(/^(Unfollow Ivy Moss|Cancel the follow request to Ivy Moss)$/);

    await page.getByRole('button', { name: 'Block Ivy Moss' }).press('Enter');
    await page
      .getByRole('dialog', { name: 'Block Ivy Moss?' })
      .getByRole('button', { name: 'Block', exact: true })
      .press('Enter');
    await note(page, 'Blocked Ivy Moss');
    await expect.poll(() => focusedLabel(page)).toBe('Unblock Ivy Moss');

    await page.keyboard.press('Enter');
    await note(page, 'Unblocked Ivy Moss');
    await expect.poll(() => focusedLabel(page)).toBe('Block Ivy Moss');
  });

  it('asks before unblocking a server, and keeps focus in the section', async () => {
    const page = await openAs('admin', '/admin');
    for (const domain of ['spam.example', 'noise.example']) {
      expect(await send(page, 'POST', '/api/domain-blocks', { domain })).toBe(201);
    }
    await page.reload();
    const section = region(page, 'Blocked servers');
    const list = section.getByRole('list', { name: 'Blocked servers' });
    await page.setViewportSize({ width: 390, height: 844 });
    await list.getByRole('button', { name: 'Unblock spam.example' }).press('Enter');
    await list.getByRole('button', { name: 'Yes, unblock' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await smallTargets(page)).toEqual([]);
    await list.getByRole('button', { name: 'Yes, unblock' }).press('Enter');
    await note(page, 'Block lifted: spam.example');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    await expect.poll(() => focusInside(section)).toBe(true);
  });

  it("asks before revoking a token from the admin's manage-user panel, and keeps focus there", async () => {
    const hazel = (await people.server.ctx.users.findByUsername('hazel'))!;
    await people.server.ctx.tokens.create(hazel, { name: 'Hazel sheet', scope: 'read' });
    const page = await openAs('admin', '/admin');
    await page.getByRole('button', { name: 'Manage hazel', exact: true }).press('Enter');
    const panel = page.getByRole('region', { name: /^Manage user / });
    const revoke = panel.getByRole('button', { name: 'Revoke Hazel sheet of hazel' });
    await revoke.press('Enter');
    await panel.getByRole('button', { name: 'Yes, revoke' }).press('Enter');
    await note(page, 'Access token revoked');
    await panel.getByText('hazel has no access tokens.').waitFor();
    await expect.poll(() => focusInside(panel)).toBe(true);
  });
});
