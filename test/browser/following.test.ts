import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { headingText, pathOf } from '../helpers/browser.ts';
import { startFakeRemote } from '../helpers/fake-remote.ts';
import { NOT_A_VAULT, NOT_A_VAULT_ROW } from '../../web/src/following/remote-api.ts';
import { scrollWidth, smallTargets } from './phone-checks.ts';
import { expectPending, peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';

/*
 * /following with two people in two browsers: the empty states, the '+ Follow' dialog (hint,
 * 'No users found.', keyboard, focus trap, Escape), following by search, the follow invite in
 * the other's Alerts ('Follow back', 'Dismiss'), Unfollow (and its failure), Follow / Unfollow
 * on a public profile, a fediverse follower (Remove), and following a fediverse account by
 * handle (a Mastodon-shaped fake over https), told in the dialog and on its row, on a phone,
 * that it is not a vault (its posts will not show in the activity).
 */

const PEOPLE = [
  ['alder', 'Alder Cask'],
  ['birch', 'Birch Barrel'],
  ['cedar', 'Cédric Oak'],
  ['elm', 'Elm Stave'],
  ['fir', 'Fir Bung'],
  ['gorse', 'Gorse Char'],
  ['hazel', 'Hazel Still'],
] as const;

const people = peopleInBrowsers(PEOPLE);
const { openAs, userId } = people;

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const followingList = (page: Page) => region(page, 'People you follow');
const followersList = (page: Page) => region(page, 'Followers');
const followDialog = (page: Page) => page.getByRole('dialog', { name: 'Follow someone' });
const alertsButton = (page: Page) => page.getByRole('button', { name: /^Alerts, \d+ pending$/ });

/** Follows through the API, as `follower` (the other tests' starting point). */
async function follow(follower: string, followed: string) {
  const page = await openAs(follower, '/following');
  const status = await page.evaluate(
    async (id) =>
      (
        await fetch(`/api/users/${id}/follow`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    userId(followed),
  );
  expect(status).toBe(201);
}

/** Whether the element has focus. */
const isFocused = async (element: Locator) =>
  (await element.and(element.page().locator(':focus')).count()) === 1;

/** A row of one of the two lists, found by the person's full name. */
const row = (list: Locator, fullName: string) =>
  list.getByRole('listitem').filter({ has: list.page().getByRole('link', { name: fullName }) });

describe('/following', () => {
  it("says You aren't following anyone yet. and No followers yet. to someone new", async () => {
    const page = await openAs('elm', '/following');
    expect(await headingText(page)).toBe('Following');
    await followingList(page).getByText("You aren't following anyone yet.").waitFor();
    await followersList(page).getByText('No followers yet.').waitFor();
    expect(await page.getByRole('button', { name: '+ Follow' }).isVisible()).toBe(true);
  });

  it('+ Follow: a labelled search box, the two-character hint, No users found., a focus trap and Escape', async () => {
    const page = await openAs('elm', '/following');
    const opener = page.getByRole('button', { name: '+ Follow' });
    await opener.click();
    const dialog = followDialog(page);
    await dialog.waitFor();
    const input = dialog.getByLabel('Search users');
    await expect.poll(() => isFocused(input)).toBe(true);
    await dialog.getByText('Enter at least two characters to search.').waitFor();

    const searches: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/users/search') searches.push(url.searchParams.get('q') ?? '');
    });

    // One character (even with spaces around it) is not enough: the hint stays.
    await input.fill('  b  ');
    await dialog.getByText('Enter at least two characters to search.').waitFor();

    // Typed, a word is searched for trimmed. How many searches go out on the way depends on how
    // fast the keys come (the search waits for a pause in typing), so only what they asked is
    // checked: the last one the final text, none of them under two characters or untrimmed.
    await input.fill('');
    await input.pressSequentially('  birc');
    await dialog.getByRole('button', { name: /Birch Barrel/ }).waitFor();
    await expect.poll(() => searches.at(-1)).toBe('birc');
    expect(searches.filter((q) => q.length < 2 || q !== q.trim())).toEqual([]);

    // Accents and case do not matter; the caller is never in the results.
    await input.fill('CEDRIC');
    await dialog.getByRole('button', { name: /Cédric Oak/ }).waitFor();
    await input.fill('elm');
    await dialog.getByText('No users found.', { exact: true }).waitFor();
    await input.fill('zzqx');
    await dialog.getByText('No users found.', { exact: true }).waitFor();

    // Back under two characters: the results clear and the hint returns.
    await input.fill('bir');
    await dialog.getByRole('button', { name: /Birch Barrel/ }).waitFor();
    await input.fill('b');
    await dialog.getByText('Enter at least two characters to search.').waitFor();
    expect(await dialog.getByRole('button', { name: /Birch Barrel/ }).count()).toBe(0);

    // Tab and Shift+Tab stay inside the dialog.
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await dialog.locator(':focus').count()).toBe(1);
    }

    // Escape closes it and gives focus back to '+ Follow'.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await isFocused(opener)).toBe(true);
    await followingList(page).getByText("You aren't following anyone yet.").waitFor();
  });

  it('A follows B by search with the keyboard; B sees the invite and follows back; both lists update', async () => {
    const alder = await openAs('alder', '/following');
    await followingList(alder).getByText("You aren't following anyone yet.").waitFor();
    await alder.getByRole('button', { name: '+ Follow' }).click();
    const dialog = followDialog(alder);
    const input = dialog.getByLabel('Search users');
    await input.fill('barrel');
    await dialog.getByRole('button', { name: /Birch Barrel/ }).waitFor();
    await input.press('ArrowDown');
    expect(await isFocused(dialog.getByRole('button', { name: /Birch Barrel/ }))).toBe(true);
    await alder.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });

    const birchRow = row(followingList(alder), 'Birch Barrel');
    await birchRow.waitFor();
    expect(await birchRow.textContent()).toContain('@birch');
    const today = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date());
    expect(await birchRow.textContent()).toContain(`Since ${today}`);
    expect(await birchRow.getByRole('link', { name: 'Birch Barrel' }).getAttribute('href')).toBe(
      '/users/birch',
    );
    expect(await birchRow.getByRole('button', { name: 'Unfollow Birch Barrel' }).isVisible()).toBe(
      true,
    );

    // In the dialog Birch is now marked and cannot be followed twice.
    await alder.getByRole('button', { name: '+ Follow' }).click();
    await dialog.getByLabel('Search users').fill('birch');
    const marked = dialog.getByRole('listitem').filter({ hasText: 'Birch Barrel' });
    await marked.getByText('Following', { exact: true }).waitFor();
    expect(await dialog.getByRole('button', { name: /Birch Barrel/ }).count()).toBe(0);
    await alder.keyboard.press('Escape');

    // Birch: the badge counts the follow invite; 'Follow back' answers it.
    const birch = await openAs('birch', '/following');
    await expectPending(birch, 1);
    await row(followersList(birch), 'Alder Cask').waitFor();
    await alertsButton(birch).click();
    await birch
      .getByText(/Alder Cask/)
      .first()
      .waitFor();
    await birch.getByRole('button', { name: 'Follow back' }).click();
    await expectPending(birch, 0);
    await row(followingList(birch), 'Alder Cask').waitFor();
    await row(followersList(birch), 'Alder Cask').waitFor();
    expect(await row(followersList(birch), 'Alder Cask').textContent()).toContain('@alder');

    // Alder: Birch now follows back.
    await alder.reload();
    await row(followersList(alder), 'Birch Barrel').waitFor();
    await row(followingList(alder), 'Birch Barrel').waitFor();
    await expectPending(alder, 1);

    // A profile link of the list opens the profile.
    await row(followingList(alder), 'Birch Barrel').getByRole('link').click();
    expect(await headingText(alder)).toBe('birch');
    expect(pathOf(alder)).toBe('/users/birch');
  });

  it('Dismiss closes a follow invite without following back', async () => {
    await follow('gorse', 'hazel');
    const hazel = await openAs('hazel', '/following');
    await expectPending(hazel, 1);
    await alertsButton(hazel).click();
    await hazel.getByRole('button', { name: 'Dismiss' }).click();
    await expectPending(hazel, 0);
    await row(followersList(hazel), 'Gorse Char').waitFor();
    await followingList(hazel).getByText("You aren't following anyone yet.").waitFor();
  });

  it('Unfollow says Failed to unfollow user when it fails, and removes the person when it works', async () => {
    await follow('fir', 'cedar');
    const fir = await openAs('fir', '/following');
    const cedarRow = row(followingList(fir), 'Cédric Oak');
    await cedarRow.waitFor();

    await fir.route('**/api/users/*/follow', (route) =>
      route.fulfill({ status: 500, json: { message: 'Something broke' } }),
    );
    await cedarRow.getByRole('button', { name: 'Unfollow Cédric Oak' }).click();
    await fir.getByRole('alert').getByText('Failed to unfollow user', { exact: true }).waitFor();
    expect(await cedarRow.isVisible()).toBe(true);

    await fir.unroute('**/api/users/*/follow');
    await cedarRow.getByRole('button', { name: 'Unfollow Cédric Oak' }).click();
    await followingList(fir).getByText("You aren't following anyone yet.").waitFor();
    await fir.reload();
    await followingList(fir).getByText("You aren't following anyone yet.").waitFor();
  });

  it('a public profile has Follow and Unfollow beside it, and none on your own', async () => {
    const fir = await openAs('fir', '/users/elm');
    const about = region(fir, 'About elm');
    await about.getByRole('button', { name: 'Follow Elm Stave' }).click();
    await about.getByRole('button', { name: 'Unfollow Elm Stave' }).waitFor();
    expect(await fir.getByRole('link', { name: 'Back to following' }).isVisible()).toBe(true);

    await fir.getByRole('link', { name: 'Back to following' }).click();
    expect(await headingText(fir)).toBe('Following');
    await row(followingList(fir), 'Elm Stave').waitFor();

    await row(followingList(fir), 'Elm Stave').getByRole('link').click();
    await region(fir, 'About elm').getByRole('button', { name: 'Unfollow Elm Stave' }).click();
    await region(fir, 'About elm').getByRole('button', { name: 'Follow Elm Stave' }).waitFor();
    await fir.getByRole('link', { name: 'Back to following' }).click();
    await followingList(fir).getByText("You aren't following anyone yet.").waitFor();

    await fir.goto('/users/fir');
    await region(fir, 'About fir').waitFor();
    expect(await region(fir, 'About fir').getByRole('button').count()).toBe(0);
  });

  it('a fediverse follower shows its display name and actor URI', async () => {
    const db = people.server.ctx.database.database;
    const now = Date.now();
    const remote = (await db
      .prepare(
        `INSERT INTO actors (kind, uri, inbox_url, display_name, handle, summary, created_at, updated_at)
         VALUES ('remote', ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        'https://pub.example/users/maple',
        'https://pub.example/users/maple/inbox',
        'Maple on the Fediverse',
        '@maple@pub.example',
        'Rye and more rye.',
        now,
        now,
      )) as { id: number };
    await db
      .prepare(
        `INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)`,
      )
      .run(remote.id, await people.server.ctx.actors.localActorId(userId('elm')), now);

    const elm = await openAs('elm', '/following');
    const item = followersList(elm)
      .getByRole('listitem')
      .filter({ hasText: 'Maple on the Fediverse' });
    await item.waitFor();
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('https://pub.example/users/maple');
    expect(text).toContain('Rye and more rye.');
    // Its actions are Remove (a Reject goes to its server) and Block.
    expect(await item.getByRole('button').count()).toBe(2);
    expect(
      await item.getByRole('button', { name: 'Remove follower Maple on the Fediverse' }).count(),
    ).toBe(1);
    expect(await item.getByRole('button', { name: 'Block Maple on the Fediverse' }).count()).toBe(
      1,
    );
  });

  it('follows a fediverse account by handle from the dialog, its summary shown as text', async () => {
    sharedTestCertificate().trustInThisProcess();
    const remote = await startFakeRemote({ https: true });
    try {
      remote.addAccount('maplefan', {
        name: 'Maple Fan',
        summary: '<p>Likes <b>rye</b> <img src=x onerror="alert(1)"></p>',
        icon: {
          url: remote.serveFile('/maplefan.png', Buffer.from('not really a png'), 'image/png'),
          mediaType: 'image/png',
        },
      });
      await people.server.ctx.users.update(userId('fir'), { activityPubEnabled: true });
      const page = await openAs('fir', '/following');
      await page.getByRole('button', { name: '+ Follow' }).click();
      const dialog = followDialog(page);
      const input = dialog.getByLabel('Or follow a fediverse account');
      await input.fill(`@nobody@${remote.host}`);
      await dialog.getByRole('button', { name: 'Look up' }).click();
      // The first lookup loads the federation code in the server: it may take a while.
      await dialog
        .getByRole('alert')
        .filter({ hasText: `No account @nobody@${remote.host} was found.` })
        .waitFor({ timeout: 30_000 });

      await input.fill(`@${remote.handle('maplefan')}`);
      await dialog.getByRole('button', { name: 'Look up' }).click();
      const account = dialog.getByRole('group', { name: `Account @maplefan@${remote.host}` });
      await account.waitFor();
      const text = (await account.textContent()) ?? '';
      expect(text).toContain('Maple Fan');
      expect(text).toContain('Likes rye');
      // No markup from the summary, and no image from the other server (initials instead).
      expect(await account.locator('b, img').count()).toBe(0);
      await account.getByRole('button', { name: 'Follow' }).click();
      await dialog.waitFor({ state: 'detached' });

      const item = followingList(page).getByRole('listitem').filter({ hasText: 'Maple Fan' });
      await item.waitFor();
      const link = item.getByRole('link', { name: `@maplefan@${remote.host}` });
      expect(await link.getAttribute('href')).toBe(remote.account('maplefan').id);
      // The fake accepts at once: after a reload the follow is no longer pending.
      await remote.waitForDelivery((d) => d.activity.type === 'Follow', 30_000);
      await expect
        .poll(
          async () => {
            await page.reload();
            await item.waitFor();
            return item.getByText('Pending', { exact: true }).count();
          },
          { timeout: 30_000 },
        )
        .toBe(0);
      await item.getByRole('button', { name: 'Unfollow Maple Fan' }).click();
      await item.waitFor({ state: 'detached' });
    } finally {
      await remote.close();
    }
  });

  it('says in the dialog and on the row, on a phone, that an account not on a vault shows no posts', async () => {
    sharedTestCertificate().trustInThisProcess();
    const [masto, cellar] = await Promise.all([
      startFakeRemote({ https: true }),
      startFakeRemote({ https: true, software: 'vault' }),
    ]);
    try {
      masto.addAccount('pinefan', { name: 'Pine Fan' });
      cellar.addAccount('oakfan', { name: 'Oak Fan' });
      await people.server.ctx.users.update(userId('gorse'), { activityPubEnabled: true });
      const page = await openAs('gorse', '/following');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: '+ Follow' }).click();
      const dialog = followDialog(page);
      const input = dialog.getByLabel('Or follow a fediverse account');

      // An account on a vault: nothing to say.
      await input.fill(`@${cellar.handle('oakfan')}`);
      await dialog.getByRole('button', { name: 'Look up' }).click();
      const oak = dialog.getByRole('group', { name: `Account @oakfan@${cellar.host}` });
      await oak.waitFor({ timeout: 30_000 });
      expect(await oak.getByText(NOT_A_VAULT).count()).toBe(0);

      // A Mastodon account: the dialog says what will and will not arrive, and Follow is
      // described by it.
      await input.fill(`@${masto.handle('pinefan')}`);
      await dialog.getByRole('button', { name: 'Look up' }).click();
      const pine = dialog.getByRole('group', { name: `Account @pinefan@${masto.host}` });
      const notice = pine.getByText(NOT_A_VAULT);
      await notice.waitFor({ timeout: 30_000 });
      const followButton = pine.getByRole('button', { name: 'Follow' });
      const describedBy = await followButton.getAttribute('aria-describedby');
      expect(describedBy).toBe(await notice.getAttribute('id'));
      expect(await smallTargets(page)).toEqual([]);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      await followButton.click();
      await dialog.waitFor({ state: 'detached' });

      // Its row in the Following list says it in words, short.
      const item = followingList(page).getByRole('listitem').filter({ hasText: 'Pine Fan' });
      await item.getByText(NOT_A_VAULT_ROW).waitFor();
      expect(await smallTargets(page)).toEqual([]);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      await page.reload();
      await item.getByText(NOT_A_VAULT_ROW).waitFor();
    } finally {
      await Promise.all([masto.close(), cellar.close()]);
    }
  });
});
