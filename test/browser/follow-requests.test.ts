import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectPending, peopleInBrowsers } from '../helpers/people-in-browsers.ts';

/*
 * Approving followers with two people in two browsers: Larch turns 'Approve followers' on in
 * the Privacy panel; Maple follows from '+ Follow' and sees 'Requested' in the list, the
 * dialog and on Larch's profile; Larch accepts in the Alerts panel and Maple then follows;
 * Larch removes Maple again from the followers list.
 */

const PEOPLE = [
  ['larch', 'Larch Lodge'],
  ['maple', 'Maple Mash'],
] as const;

const people = peopleInBrowsers(PEOPLE);
const { openAs } = people;

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const followingList = (page: Page) => region(page, 'People you follow');
const followersList = (page: Page) => region(page, 'Followers');
const row = (list: Locator, fullName: string) =>
  list.getByRole('listitem').filter({ has: list.page().getByRole('link', { name: fullName }) });

describe('approving followers', () => {
  it("shows 'Requested' until the followed user accepts in Alerts, and lets them remove the follower", async () => {
    // Larch asks for approval.
    const larch = await openAs('larch', '/profile');
    const privacy = region(larch, 'Privacy');
    const approve = privacy.getByRole('switch', { name: 'Approve followers' });
    await approve.click();
    await larch.getByText('Follower approval saved').waitFor();
    expect(await approve.isChecked()).toBe(true);
    expect((await people.server.ctx.users.findByUsername('larch'))!.approveFollowers).toBe(true);

    // Maple follows from the dialog: a request, 'Requested' everywhere it would say 'Following'.
    const maple = await openAs('maple', '/following');
    await maple.getByRole('button', { name: '+ Follow' }).click();
    const dialog = maple.getByRole('dialog', { name: 'Follow someone' });
    await dialog.getByLabel('Search users').fill('larch');
    await dialog.getByRole('button', { name: /Larch Lodge/ }).click();
    await maple.getByText('Follow request sent to Larch Lodge').waitFor();
    const requested = row(followingList(maple), 'Larch Lodge');
    await requested.getByText('Requested', { exact: true }).waitFor();
    await requested
      .getByRole('button', { name: 'Cancel the follow request to Larch Lodge' })
      .waitFor();

    await maple.getByRole('button', { name: '+ Follow' }).click();
    await dialog.getByLabel('Search users').fill('larch');
    const marked = dialog.getByRole('listitem').filter({ hasText: 'Larch Lodge' });
    await marked.getByText('Requested', { exact: true }).waitFor();
    expect(await dialog.getByRole('button', { name: /Larch Lodge/ }).count()).toBe(0);
    await maple.keyboard.press('Escape');

    await maple.goto('/users/larch');
    await maple.getByText('Requested', { exact: true }).waitFor();
    expect(await maple.getByRole('button', { name: 'Follow Larch Lodge' }).count()).toBe(0);

    // Larch: no follower yet; the request waits in Alerts with Accept and Decline.
    await larch.goto('/following');
    await expectPending(larch, 1);
    await followersList(larch).getByText('No followers yet.').waitFor();
    await larch.getByRole('button', { name: 'Alerts, 1 pending', exact: true }).click();
    const request = region(larch, 'Alerts')
      .getByRole('listitem')
      .filter({ hasText: 'Maple Mash asks to follow you' });
    await request.getByRole('button', { name: 'Decline' }).waitFor();
    await request.getByRole('button', { name: 'Accept' }).click();
    await request.getByText('Accepted', { exact: true }).waitFor();
    await larch.getByText('Maple Mash now follows you').waitFor();
    await expectPending(larch, 0);
    const follower = row(followersList(larch), 'Maple Mash');
    await follower.waitFor();

    // Maple now follows.
    await maple.goto('/following');
    const accepted = row(followingList(maple), 'Larch Lodge');
    await accepted.getByRole('button', { name: 'Unfollow Larch Lodge' }).waitFor();
    expect(await accepted.getByText('Requested', { exact: true }).count()).toBe(0);

    // Larch removes Maple: gone from both lists.
    await follower.getByRole('button', { name: 'Remove follower Maple Mash' }).click();
    await follower.getByRole('button', { name: 'Yes, remove' }).click();
    await larch.getByText('Maple Mash no longer follows you').waitFor();
    await followersList(larch).getByText('No followers yet.').waitFor();
    await maple.reload();
    await followingList(maple).getByText("You aren't following anyone yet.").waitFor();
  });
});
