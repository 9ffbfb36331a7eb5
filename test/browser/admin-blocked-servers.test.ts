import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { scrollWidth, smallTargets } from './phone-checks.ts';

/*
 * The Admin Console's Blocked servers section against the real server in Chromium: block a
 * server with a note, see the server's refusal of a URL, see the list, lift the block; and the
 * section on a phone.
 */

const people = peopleInBrowsers();

const sectionOf = (page: Page) => page.getByRole('region', { name: 'Blocked servers' });
const blockedDomains = () =>
  people.server.ctx.database.database.prepare('SELECT domain FROM domain_blocks').pluck().all();

describe('the Blocked servers section of the Admin Console', () => {
  it('blocks a server with a note, shows a refusal in the field, lists and unblocks', async () => {
    const page = await people.openAs('admin', '/admin');
    const section = sectionOf(page);
    await section.getByText('No server is blocked.').waitFor();

    const domain = section.getByRole('textbox', { name: 'Server' });
    await domain.fill('https://spam.example/users/x');
    await section.getByRole('button', { name: 'Block server' }).click();
    await expect.poll(() => domain.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    expect(await section.textContent()).toContain('is not a host name');
    expect(await blockedDomains()).toEqual([]);

    await domain.fill('Spam.Example');
    await section.getByRole('textbox', { name: 'Note (optional)' }).fill('Sent 500 notes');
    await section.getByRole('button', { name: 'Block server' }).click();
    const list = section.getByRole('list', { name: 'Blocked servers' });
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').count()).toBe(1);
    expect(await list.textContent()).toContain('spam.example');
    expect(await list.textContent()).toContain('Sent 500 notes');
    expect(await domain.inputValue()).toBe('');
    expect(await blockedDomains()).toEqual(['spam.example']);
    expect(await seriousViolations(page)).toEqual([]);

    await list.getByRole('button', { name: 'Unblock spam.example' }).click();
    await list.getByRole('button', { name: 'Yes, unblock' }).click();
    await section.getByText('No server is blocked.').waitFor();
    expect(await blockedDomains()).toEqual([]);
  });

  it('fits a 390 px wide screen with targets of at least 44 × 44 px', async () => {
    const made = await fetch(`${people.server.url}/api/domain-blocks`, {
      method: 'POST',
      headers: {
        origin: people.server.url,
        'content-type': 'application/json',
        cookie: await people.cookieOf('admin'),
      },
      body: JSON.stringify({
        domain: 'a-rather-long-host-name-of-a-hostile-server.example.social:8443',
        note: 'A note long enough to wrap on a phone screen without pushing anything sideways',
      }),
    });
    expect(made.status).toBe(201);
    const page = await people.openAs('admin', '/admin', {
      width: 390,
      height: 844,
    });
    const section = sectionOf(page);
    await section.getByRole('list', { name: 'Blocked servers' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await smallTargets(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
