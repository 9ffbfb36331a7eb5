import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { contrastOf, MIN_CONTRAST } from '../helpers/contrast.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { seedEntry } from './vault-seed.ts';

/*
 * Danger buttons keep their text readable in every state: at rest (axe-core checks that on every
 * screen), under the pointer and pressed, which axe-core never sees.
 */

const people = peopleInBrowsers();

beforeAll(async () => {
  await seedEntry(people.server, people.server.adminUsername, {
    name: 'Walk Talk Stout',
    type: 'BEER',
  });
});

/** The button's contrast at rest, under the pointer and pressed (released away from it). */
async function statesOf(page: Page, button: Locator, name: string) {
  await button.waitFor();
  const measured: Record<string, number> = {};
  measured[`${name} at rest`] = await contrastOf(button);
  await button.hover();
  measured[`${name} under the pointer`] = await contrastOf(button);
  await page.mouse.down();
  measured[`${name} pressed`] = await contrastOf(button);
  await page.mouse.move(0, 0);
  await page.mouse.up();
  return measured;
}

describe('danger buttons', () => {
  it(`keep their text at ${MIN_CONTRAST}:1 or more at rest, under the pointer and pressed`, async () => {
    const page = await people.openAs('admin', '/admin');
    // The button is enabled once a server is named.
    await page.getByRole('textbox', { name: 'Server' }).fill('spam.example');
    const measured = await statesOf(
      page,
      page.getByRole('button', { name: 'Block server' }),
      'Block server',
    );

    await page.goto('/');
    await page.getByRole('button', { name: /^Edit Walk Talk Stout/ }).click();
    const dialog = page.getByRole('dialog');
    const remove = dialog.getByRole('button', { name: 'Delete', exact: true });
    Object.assign(measured, await statesOf(page, remove, 'Delete'));
    await remove.click();
    const confirm = dialog.getByRole('button', { name: 'Yes, delete' });
    Object.assign(measured, await statesOf(page, confirm, 'Yes, delete'));

    expect(Object.values(measured).filter(Number.isFinite)).toHaveLength(9);
    const low = Object.fromEntries(
      Object.entries(measured)
        .filter(([, ratio]) => ratio < MIN_CONTRAST)
        .map(([state, ratio]) => [state, `${ratio.toFixed(2)}:1`]),
    );
    expect(low).toEqual({});
  });
});
