import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { beverageResponseSchema } from '../../contract/beverages.ts';
import type { HttpsVault } from '../helpers/https-vault.ts';
import { jpeg } from '../helpers/images.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import type { TestServer } from '../helpers/server.ts';
import { loadedWidth } from './vault-seed.ts';

/*
 * Two real vaults, alice's in a real browser. Vault A (alice) is the browser's; vault B (bob)
 * sits behind a TLS-terminating proxy, so that A can look bob up by handle over https. Alice
 * follows @bob@{B} from the '+ Follow' dialog: Pending until B's Accept arrives. Bob logs an
 * entry with a photo on B; it appears in alice's /activity with A's copy of the photo, she adds
 * it to her vault, and when bob deletes it, it leaves her feed. Her cheer and comment on his next
 * entry reach his vault (counted, in his thread, notified), and so does taking the cheer back.
 * Unfollowing removes bob from her list and her from his followers. Bob approves followers, so
 * her follow waits until he accepts it; later bob follows alice from his vault, and his cheer
 * and comment on her entry reach her browser; when she blocks him, his follow ends on B too.
 */

const people = peopleInBrowsers(
  [{ username: 'alice', password: 'alice-password', activityPubEnabled: true }],
  { remote: true },
);
let a: TestServer;
let b: HttpsVault;
let bobCookie: string;
let page: Page;

beforeAll(async () => {
  [a, b] = [people.server, people.remote];
  bobCookie = await b.addUser('bob');
  page = await people.openAs('alice', '/following');
}, 60_000);

const following = () => page.getByRole('region', { name: 'People you follow' });
const bobOnB = (path: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  headers.set('cookie', bobCookie);
  headers.set('origin', b.origin);
  return fetch(`${b.origin}/api${path}`, { ...init, headers });
};

/** Reloads the page until `ready` holds (what other servers do arrives in the background). */
async function reloadUntil(ready: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        if (await ready()) return true;
        await page.reload();
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        return ready();
      },
      // Generous: on a busy machine a delivery between the two vaults can take many seconds.
      { timeout: 45_000, interval: 500 },
    )
    .toBe(true);
}

/** Waits for alice's follow request on bob's vault; its notification id. */
async function pendingRequest(): Promise<number> {
  let id: number | undefined;
  await expect
    .poll(
      async () => {
        const { notifications } = (await (await bobOnB('/notifications')).json()) as {
          notifications: { id: number; type: string; status: string }[];
        };
        id = notifications.find((n) => n.type === 'FOLLOW_REQUEST' && n.status === 'PENDING')?.id;
        return id !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return id!;
}

describe('alice on one vault and bob on another, in a browser', { timeout: 120_000 }, () => {
  it('alice follows @bob by handle: Pending while bob, who approves followers, has not accepted', async () => {
    const approve = new FormData();
    approve.append('approveFollowers', 'true');
    expect((await bobOnB('/users/me', { method: 'PATCH', body: approve })).status).toBe(200);
    const handle = `@bob@${b.host}`;
    await page.getByRole('button', { name: '+ Follow' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Or follow a fediverse account').fill(handle);
    await dialog.getByRole('button', { name: 'Look up' }).click();
    const account = dialog.getByRole('group', { name: `Account ${handle}` });
    await account.getByRole('button', { name: 'Follow' }).click();
    await dialog.waitFor({ state: 'detached' });

    const item = following().getByRole('listitem').filter({ hasText: handle });
    await item.waitFor();
    expect(await item.getByRole('link', { name: handle }).getAttribute('href')).toBe(
      `${b.origin}/users/bob`,
    );
    // The Follow reached bob's vault as a request: no Accept until he answers it.
    const request = await pendingRequest();
    await page.reload();
    await item.getByText('Pending', { exact: true }).waitFor();
    expect(
      ((await (await bobOnB('/users/followers')).json()) as { followers: unknown[] }).followers,
    ).toEqual([]);

    const answered = await bobOnB(`/notifications/${request}/respond`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'ACCEPT' }),
    });
    expect(answered.status).toBe(200);
    await reloadUntil(async () => (await item.getByText('Pending', { exact: true }).count()) === 0);
    const followers = (await (await bobOnB('/users/followers')).json()) as {
      followers: { actorUri?: string }[];
    };
    expect(followers.followers.map((f) => f.actorUri)).toEqual([`${a.url}/users/alice`]);
  });

  it('bob’s new entry reaches alice’s /activity with its photo, and she adds it to her vault', async () => {
    const form = new FormData();
    form.append('name', 'Springbank 15');
    form.append('type', 'WHISKEY');
    form.append('subtype', 'Scotch');
    form.append('makerName', 'Springbank');
    form.append('rating', '4');
    form.append('notes', 'Oily, <b>briny</b>.');
    form.append('photo', new Blob([await jpeg(600, 800)], { type: 'image/jpeg' }), 'b.jpg');
    const created = await bobOnB('/beverages', { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const entryId = beverageResponseSchema.parse(await created.json()).beverage.id;

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Activity' })
      .click();
    const card = page
      .getByRole('list', { name: 'Recent activity' })
      .getByRole('article', { name: 'Springbank 15', exact: true });
    await reloadUntil(async () => (await card.count()) === 1);
    const text = (await card.textContent()) ?? '';
    expect(text).toContain(`@bob@${b.host}`);
    expect(text).toContain('Springbank');
    expect(text).toContain('Oily, <b>briny</b>.');
    expect(text).toContain('View only');
    expect(await card.getByRole('img', { name: 'Rated 4 out of 5' }).isVisible()).toBe(true);
    // The photo is A's own copy, served from A's media.
    const photo = card.locator('img[src^="/media/"]');
    expect(await loadedWidth(photo)).toBeGreaterThan(0);

    await card.getByRole('button', { name: 'Add to vault: Springbank 15' }).click();
    await page
      .locator('.note--success', { hasText: 'Added “Springbank 15” to your to-try list' })
      .waitFor();
    await card.getByText('In your vault').waitFor();
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    const copy = page
      .getByRole('region', { name: 'Whiskey', exact: true })
      .getByRole('region', { name: 'To try' })
      .getByRole('article')
      .first();
    await copy.getByRole('heading', { name: 'Springbank 15' }).waitFor();
    expect(await loadedWidth(copy.locator('img'))).toBeGreaterThan(0);

    // Bob deletes it on his vault: it leaves alice's feed (her copy stays hers).
    expect((await bobOnB(`/beverages/${entryId}`, { method: 'DELETE' })).status).toBe(204);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Activity' })
      .click();
    await reloadUntil(async () => (await card.count()) === 0);
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await copy.getByRole('heading', { name: 'Springbank 15' }).waitFor();
  });

  it('alice cheers and comments bob’s entry in her browser: both reach his vault', async () => {
    const form = new FormData();
    form.append('name', 'Kilkerran 12');
    form.append('type', 'WHISKEY');
    const created = await bobOnB('/beverages', { method: 'POST', body: form });
    expect(created.status).toBe(201);
    const entryId = beverageResponseSchema.parse(await created.json()).beverage.id;
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Activity' })
      .click();
    const card = page
      .getByRole('list', { name: 'Recent activity' })
      .getByRole('article', { name: 'Kilkerran 12', exact: true });
    await reloadUntil(async () => (await card.count()) === 1);

    await card.getByRole('button', { name: /^Cheer: Kilkerran 12, 0 cheers$/ }).click();
    await card.getByRole('button', { name: /^Cheer: Kilkerran 12, 1 cheer$/ }).waitFor();
    await card.getByRole('button', { name: /^Comments: Kilkerran 12, / }).click();
    const thread = page.getByRole('dialog', { name: 'Comments' });
    await thread.getByLabel('Your comment').fill('Peat and fruit: https://kilkerran.example/12');
    await thread.getByRole('button', { name: 'Comment', exact: true }).click();
    await thread.getByRole('listitem').filter({ hasText: 'Peat and fruit' }).waitFor();

    // On bob's vault: counted, in the thread as text with its link, and told to bob.
    const onB = async () =>
      beverageResponseSchema.parse(await (await bobOnB(`/beverages/${entryId}`)).json()).beverage;
    await expect
      .poll(
        async () => {
          const entry = await onB();
          return [entry.cheerCount, entry.commentCount];
        },
        { timeout: 30_000 },
      )
      .toEqual([1, 1]);
    const bobThread = (await (await bobOnB(`/beverages/${entryId}/comments`)).json()) as {
      comments: { content: string; author: { handle: string | null } }[];
    };
    expect(bobThread.comments).toEqual([
      expect.objectContaining({
        content: 'Peat and fruit: https://kilkerran.example/12',
        author: expect.objectContaining({ handle: expect.stringContaining('alice') }),
      }),
    ]);
    const alerts = (await (await bobOnB('/notifications')).json()) as {
      notifications: { type: string }[];
    };
    expect(
      alerts.notifications
        .map((n) => n.type)
        .filter((t) => t === 'CHEER' || t === 'COMMENT')
        .sort(),
    ).toEqual(['CHEER', 'COMMENT']);

    // Alice takes the cheer back: bob's count follows.
    await thread.getByRole('button', { name: 'Close' }).click();
    await thread.waitFor({ state: 'detached' });
    await card.getByRole('button', { name: /^Cheer: Kilkerran 12, 1 cheer$/ }).click();
    await card.getByRole('button', { name: /^Cheer: Kilkerran 12, 0 cheers$/ }).waitFor();
    await expect.poll(async () => (await onB()).cheerCount, { timeout: 30_000 }).toBe(0);
  });

  it('alice unfollows bob: he leaves her list and she leaves his followers', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Following' })
      .click();
    const item = following()
      .getByRole('listitem')
      .filter({ hasText: `@bob@${b.host}` });
    await item.getByRole('button', { name: /^Unfollow / }).click();
    await item.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () =>
          ((await (await bobOnB('/users/followers')).json()) as { followers: unknown[] }).followers
            .length,
        { timeout: 30_000 },
      )
      .toBe(0);
  });
  it('bob follows alice from his vault, and his cheer and comment on her entry reach her browser', async () => {
    const actorUri = `${a.url}/users/alice`;
    const send = (path: string, body: unknown) =>
      bobOnB(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await send('/users/remote-follows', { actorUri })).status).toBe(201);
    await expect
      .poll(async () => JSON.stringify(await (await bobOnB('/users/following')).json()), {
        timeout: 30_000,
      })
      .toContain('"ACCEPTED"');

    // Alice logs an entry in her browser's vault; it reaches bob's feed on B.
    const logged = await page.evaluate(async () => {
      const form = new FormData();
      form.append('name', 'Ardbeg Uigeadail');
      form.append('type', 'WHISKEY');
      form.append('subtype', 'Scotch');
      const res = await fetch('/api/beverages', { method: 'POST', body: form });
      return res.status;
    });
    expect(logged).toBe(201);
    let remoteId: number | undefined;
    await expect
      .poll(
        async () => {
          const { activities } = (await (await bobOnB('/activity')).json()) as {
            activities: { kind: string; beverage: { id: number; name: string } }[];
          };
          remoteId = activities.find(
            (item) => item.kind === 'remote' && item.beverage.name === 'Ardbeg Uigeadail',
          )?.beverage.id;
          return remoteId !== undefined;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const path = `/activity/remote-entries/${remoteId}`;
    expect((await send(`${path}/cheer`, {})).status).toBe(200);
    expect((await send(`${path}/comments`, { content: 'Sherry and smoke.' })).status).toBe(201);

    // On her dashboard: counted, in the thread, and in her Alerts.
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    const card = page.getByRole('article', { name: 'Ardbeg Uigeadail', exact: true }).first();
    const cheers = card.getByRole('button', { name: /^Cheer: Ardbeg Uigeadail, 1 cheer$/ });
    const comments = card.getByRole('button', { name: /^Comments: Ardbeg Uigeadail, 1 comment$/ });
    // The cheer and the comment are two deliveries; wait until both have crossed.
    await reloadUntil(async () => (await cheers.count()) === 1 && (await comments.count()) === 1);
    await comments.click();
    const thread = page.getByRole('dialog', { name: 'Comments' });
    const comment = thread.getByRole('listitem').filter({ hasText: 'Sherry and smoke.' });
    await comment.waitFor();
    expect(await comment.textContent()).toContain(`@bob@${b.host}`);
    await thread.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    const panel = page.getByRole('region', { name: 'Alerts' });
    await panel
      .getByRole('listitem')
      .filter({ hasText: 'cheered your Ardbeg Uigeadail' })
      .waitFor();
    await panel
      .getByRole('listitem')
      .filter({ hasText: 'commented on your Ardbeg Uigeadail' })
      .waitFor();
    await page.keyboard.press('Escape');
  });

  it('alice blocks bob from her followers: his follow of her ends on his vault too', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Following' })
      .click();
    const followers = page.getByRole('region', { name: 'Followers' });
    // His display name on B is 'Bob'.
    const bob = followers.getByRole('listitem').filter({ hasText: 'Bob' });
    await bob.getByRole('button', { name: 'Block Bob' }).click();
    const ask = page.getByRole('dialog', { name: 'Block Bob?' });
    await ask.getByRole('button', { name: 'Block', exact: true }).click();
    await bob.waitFor({ state: 'detached' });
    // The Reject(Follow) reached B: bob follows nobody there any more.
    await expect
      .poll(
        async () =>
          ((await (await bobOnB('/users/following')).json()) as { remote: unknown[] }).remote
            .length,
        { timeout: 30_000 },
      )
      .toBe(0);
  });
});
