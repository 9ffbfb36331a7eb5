import { beforeAll, describe, expect, it } from 'vitest';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';

const people = peopleInBrowsers([{ username: 'scripter', password: 'scripter-password' }]);
let entryId: number;

beforeAll(async () => {
  const owner = (await people.server.ctx.users.findByUsername('scripter'))!;
  entryId = (
    await people.server.ctx.beverages.create(owner, { name: 'Lagavulin 16', type: 'WHISKEY' })
  ).id;
});

/** What the token may do from a script: read the comments of the entry. */
async function statusWith(secret: string): Promise<number> {
  const res = await fetch(`${people.server.url}/api/beverages/${entryId}/comments`, {
    headers: { authorization: `Bearer ${secret}` },
  });
  return res.status;
}

describe('Access tokens on the profile page', () => {
  it('creates a token, shows its secret once with a copy button, lists it and revokes it', async () => {
    const page = await people.openAs('scripter', '/profile', {
      prepare: (page) =>
        page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
          origin: people.server.url,
        }),
    });
    await expect
      .poll(() => page.getByText(/does not revoke access tokens/).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    const panel = page.getByRole('region', { name: 'Access tokens' });
    await panel.getByRole('textbox', { name: 'Name' }).fill('Home dashboard');
    await panel.getByRole('combobox', { name: 'Scope' }).selectOption('write');
    await panel.getByRole('button', { name: 'Create token' }).click();

    const shown = panel.getByRole('textbox', { name: 'The new access token' });
    await shown.waitFor({ timeout: 15_000 });
    const secret = await shown.inputValue();
    expect(secret).toMatch(/^vault_pat_[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => panel.getByText('it will not be shown again').count()).toBe(1);
    await panel.getByRole('button', { name: 'Copy' }).click();
    await panel.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    expect(await statusWith(secret)).toBe(200);

    const list = panel.getByRole('list', { name: 'Your access tokens' });
    await list.getByText('Home dashboard').waitFor();
    expect(await list.textContent()).toContain('Read and write');
    expect(await list.textContent()).toContain('Never expires');

    // Done hides the secret; a reload does not bring it back.
    await panel.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shown.count()).toBe(0);
    await page.reload();
    await page
      .getByRole('list', { name: 'Your access tokens' })
      .getByText('Home dashboard')
      .waitFor();
    expect(await page.content()).not.toContain(secret.slice('vault_pat_'.length));

    const tokens = page.getByRole('region', { name: 'Access tokens' });
    await tokens.getByRole('button', { name: 'Revoke Home dashboard' }).click();
    // It asks first: Cancel keeps the token.
    await tokens.getByRole('button', { name: 'Cancel' }).click();
    await tokens.getByRole('button', { name: 'Revoke Home dashboard' }).click();
    await tokens.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByText('You have no access tokens.').waitFor({ timeout: 15_000 });
    expect(await statusWith(secret)).toBe(401);
  });
});
