import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe.ts';
import { apiStatus } from '../helpers/browser.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';

const people = peopleInBrowsers([
  { username: 'keeper', password: 'keeper-password' },
  { username: 'neighbour', password: 'neighbour-password' },
]);

describe('keeping entries private in the browser', () => {
  it('logs an entry for my eyes only, which another user of the vault cannot open', async () => {
    const page = await people.openAs('keeper', '/');
    const form = page.getByRole('region', { name: 'Log a new beverage' });
    await form.getByLabel('Name', { exact: true }).fill('Secret stash');
    await form.getByLabel('Who can see it').selectOption({ label: 'Only me' });
    await expect
      .poll(() => form.getByText('Only you (and people you share it with) can see it.').count())
      .toBe(1);
    await form.getByRole('button', { name: 'Log beverage' }).click();
    const card = page.getByRole('article', { name: 'Secret stash' });
    await card.waitFor();
    expect(await card.getByText('Only me', { exact: true }).count()).toBe(1);

    const entry = (await people.server.ctx.database.database
      .prepare("SELECT id, visibility FROM beverages WHERE name = 'Secret stash'")
      .get()) as { id: number; visibility: string };
    expect(entry.visibility).toBe('PRIVATE');
    const neighbour = await people.openAs('neighbour', '/');
    expect(await apiStatus(neighbour, `/api/beverages/${entry.id}`)).toBe(404);
    expect(await apiStatus(page, `/api/beverages/${entry.id}`)).toBe(200);
  });

  it('sets a default for new entries, changes every entry at once on the profile, and picked ones on the archive', async () => {
    // A user of its own, with one private entry, so that this test stands alone.
    await people.addPerson({ username: 'curator', password: 'curator-password' });
    const user = (await people.server.ctx.users.findByUsername('curator'))!;
    const keeper = { id: user.id, role: 'USER' as const };
    await people.server.ctx.beverages.create(keeper, {
      name: 'Curator stash',
      type: 'WHISKEY',
      visibility: 'PRIVATE',
    });
    const page = await people.openAs('curator', '/profile');
    const panel = page.getByRole('region', { name: 'Privacy' });
    await panel.getByLabel('New entries are visible to').selectOption({ label: 'My followers' });
    await page.getByText('Default visibility saved').waitFor();
    expect((await people.server.ctx.users.findByUsername('curator'))!.defaultVisibility).toBe(
      'FOLLOWERS',
    );

    await panel.getByLabel('Change them to').selectOption({
      label: 'Everyone on this vault',
    });
    await panel.getByRole('button', { name: 'Apply to all my entries' }).click();
    await panel.getByRole('button', { name: 'Yes, change them' }).click();
    await page.getByText('1 entry changed to “Everyone on this vault”').waitFor();

    await page.goto('/');
    const form = page.getByRole('region', { name: 'Log a new beverage' });
    expect(await form.getByLabel('Who can see it').inputValue()).toBe('FOLLOWERS');
    const card = page.getByRole('article', { name: 'Curator stash' });
    await card.waitFor();
    expect(await card.getByText('Only me', { exact: true }).count()).toBe(0);

    // 'Select' on the archive, on a phone: tick two entries (by click and by keyboard), make
    // them 'Only me' with one action, and the third stays as it was.
    for (const name of ['Pick Ardbeg', 'Pick Lagavulin', 'Keep Laphroaig']) {
      await people.server.ctx.beverages.create(keeper, {
        name,
        type: 'WHISKEY',
        visibility: 'MEMBERS',
      });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/whiskey');
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    const bar = page.getByRole('region', { name: 'Selected entries' });
    await bar.getByText('0 selected', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Select Pick Ardbeg' }).click();
    await page.getByRole('checkbox', { name: 'Select Pick Lagavulin' }).focus();
    await page.keyboard.press('Space');
    await bar.getByText('2 selected', { exact: true }).waitFor();
    // A click on a card ticks it rather than opening the editor, and a second unticks it.
    const keep = page.getByRole('article', { name: 'Keep Laphroaig' });
    await keep.getByRole('heading').click();
    await bar.getByText('3 selected', { exact: true }).waitFor();
    await keep.getByRole('heading').click();
    await bar.getByText('2 selected', { exact: true }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    const target = await page.locator('label:has(> input[type="checkbox"])').first().boundingBox();
    expect(target!.width).toBeGreaterThanOrEqual(44);
    expect(target!.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate('document.scrollingElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);

    expect(await bar.getByLabel('Also send to my fediverse followers').count()).toBe(0);
    await bar.getByLabel('Who can see them').selectOption({ label: 'Only me' });
    await bar.getByRole('button', { name: 'Apply to selected' }).click();
    await page.getByText('2 entries changed to “Only me”').waitFor();
    await bar.getByText('0 selected', { exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { checked: true }).count()).toBe(0);
    const visibilities = await people.server.ctx.database.database
      .prepare(
        "SELECT name, visibility FROM beverages WHERE name LIKE 'Pick %' OR name LIKE 'Keep %' ORDER BY name",
      )
      .all();
    expect(visibilities).toEqual([
      { name: 'Keep Laphroaig', visibility: 'MEMBERS' },
      { name: 'Pick Ardbeg', visibility: 'PRIVATE' },
      { name: 'Pick Lagavulin', visibility: 'PRIVATE' },
    ]);
    // The list was fetched again: the cards carry their new tag.
    const picked = page.getByRole('article', { name: 'Pick Ardbeg' });
    await picked.getByText('Only me', { exact: true }).waitFor();
    expect(await keep.getByText('Only me', { exact: true }).count()).toBe(0);

    const whiskies = (await people.server.ctx.database.database
      .prepare("SELECT count(*) AS n FROM beverages WHERE user_id = ? AND type = 'WHISKEY'")
      .get(user.id)) as { n: number };
    await bar.getByRole('button', { name: 'Select all on this page' }).click();
    await bar.getByText(`${whiskies.n} selected`, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByRole('checkbox').count()).toBe(0);
  });
});
