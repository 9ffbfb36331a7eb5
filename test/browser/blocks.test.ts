import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { smallTargets } from './phone-checks.ts';

/*
 * Blocking in the browser: 'Block' on a public profile asks first, in a dialog that says what
 * blocking does, and ends the follow; the Blocked list on the profile screen shows the block
 * and 'Unblock' lifts it. Every target stays 44 × 44 px on a phone.
 */

const people = peopleInBrowsers([
  ['alder', 'Alder Cask'],
  ['birch', 'Birch Barrel'],
]);
const { openAs, userId } = people;

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function apiStatus(page: Page, path: string, method = 'GET', body?: unknown) {
  return page.evaluate(
    async ([path, method, body]) =>
      (
        await fetch(`/api${path as string}`, {
          method: method as string,
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
      ).status,
    [path, method, body] as const,
  );
}

describe('blocking a user', () => {
  it('blocks from the profile page after a confirmation that says what blocking does, and unblocks from the Blocked list', async () => {
    const birch = await openAs('birch', '/following');
    expect(await apiStatus(birch, `/users/${userId('alder')}/follow`, 'POST', {})).toBe(201);

    const page = await openAs('alder', '/users/birch');
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('button', { name: 'Block Birch Barrel', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Block Birch Barrel?' });
    await expect
      .poll(() => dialog.textContent())
      .toContain(
        'Birch Barrel will stop following you, and you will stop following them. Neither of you will see the other',
      );
    expect(await dialog.textContent()).toContain('They are not told that you blocked them.');
    expect(await smallTargets(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Block', exact: true }).click();
    await page.getByRole('button', { name: 'Unblock Birch Barrel', exact: true }).waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await people.server.ctx.follows.followers({ id: userId('alder') })).toEqual([]);
    expect(await apiStatus(birch, `/users/${userId('alder')}/follow`, 'POST', {})).toBe(403);

    await page.goto('/profile');
    const blocked = region(page, 'Blocked');
    const row = blocked.getByRole('listitem').filter({ hasText: 'Birch Barrel' });
    await row.waitFor();
    expect(await row.textContent()).toContain('@birch');
    expect(await smallTargets(page)).toEqual([]);
    await row.getByRole('button', { name: 'Unblock Birch Barrel', exact: true }).click();
    await blocked.getByText("You haven't blocked anyone.").waitFor();
    expect(await people.server.ctx.blocks.list({ id: userId('alder') })).toEqual([]);
    expect(await apiStatus(birch, `/users/${userId('alder')}/follow`, 'POST', {})).toBe(201);
  });

  it('blocks a follower from the followers list', async () => {
    const birch = await openAs('birch', '/following');
    const status = await apiStatus(birch, `/users/${userId('alder')}/follow`, 'POST', {});
    expect([201, 409]).toContain(status);
    const page = await openAs('alder', '/following');
    const followers = region(page, 'Followers');
    await followers.getByRole('button', { name: 'Block Birch Barrel', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Block Birch Barrel?' })
      .getByRole('button', { name: 'Block', exact: true })
      .click();
    await followers.getByText('No followers yet.').waitFor();
    expect(await people.server.ctx.blocks.list({ id: userId('alder') })).toMatchObject([
      { username: 'birch' },
    ]);
  });
});
