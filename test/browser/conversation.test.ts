import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { callApi as call } from '../helpers/browser.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { scrollWidth, smallTargets } from './phone-checks.ts';
import { seedEntry } from './vault-seed.ts';

/*
 * Cheers and comments in the browser, with the real server: B cheers A's entry on a card of
 * /activity and takes it back; B comments (its link clickable, its markup shown as text) and
 * deletes the comment after a confirmation; A, the owner, deletes someone else's comment from
 * their own card; A's Alerts say who cheered and who commented, each dismissed with one button;
 * the thread on a 320 px phone.
 */

const PEOPLE = [
  ['ash', 'Ash Cooper'],
  ['beech', 'Beech Malter'],
  ['larch', 'Larch Kiln'],
] as const;

const people = peopleInBrowsers(PEOPLE);
const { openAs } = people;

/** Background deliveries (feed items, notifications) are done. */
const delivered = () => people.server.ctx.outbox.idle();

/** Whether a write through the API was taken (the answers of POST are 200 or 201). */
const taken = (status: number) => status === 200 || status === 201;

/** Who follows whom already ('beech>ash'). */
const follows = new Set<string>();

/** `follower` follows `followed` (once), then `followed` logs `name`, which reaches the feed. */
async function entryInFeed(follower: string, followed: string, name: string) {
  if (!follows.has(`${follower}>${followed}`)) {
    await people.server.ctx.follows.follow(
      { id: people.userId(follower) },
      people.userId(followed),
    );
    follows.add(`${follower}>${followed}`);
  }
  const entry = await seedEntry(people.server, followed, { name, subtype: 'Single Malt' });
  await delivered();
  return entry.id;
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });
/** The buttons are named for the entry, then the count they show ('Cheer: Oban 14, 3 cheers'). */
const named = (label: string, name: string) =>
  new RegExp(`^${label}: ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, \\d+ \\w+$`);
const cheerButton = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name: named('Cheer', name) });
const commentsButton = (scope: Page | Locator, name: string) =>
  scope.getByRole('button', { name: named('Comments', name) });
const thread = (page: Page) => page.getByRole('dialog', { name: 'Comments' });
const comments = (page: Page) => thread(page).getByRole('list', { name: 'Comments' });
const comment = (page: Page, text: string) =>
  comments(page).getByRole('listitem').filter({ hasText: text });

/** What a cheer button says: pressed or not, and its count. */
async function cheerState(button: Locator) {
  return {
    pressed: await button.getAttribute('aria-pressed'),
    count: ((await button.textContent()) ?? '').replace(/\D/g, ''),
  };
}

/** Writes a comment in the open thread and waits until it is listed. */
async function writeComment(page: Page, text: string) {
  await thread(page).getByLabel('Your comment').fill(text);
  await thread(page).getByRole('button', { name: 'Comment', exact: true }).click();
  await comment(page, text.slice(0, 20)).waitFor();
}

describe('cheers', () => {
  it('B cheers A’s entry in /activity, and takes the cheer back', async () => {
    await entryInFeed('beech', 'ash', 'Oban 14');
    const beech = await openAs('beech', '/activity');
    const cheer = cheerButton(card(beech, 'Oban 14'), 'Oban 14');
    await cheer.waitFor();
    expect(await cheerState(cheer)).toEqual({ pressed: 'false', count: '0' });

    await cheer.click();
    await expect.poll(() => cheerState(cheer)).toEqual({ pressed: 'true', count: '1' });
    // The server has it: a new page says so too.
    await beech.reload();
    await expect
      .poll(() => cheerState(cheer), { timeout: 10_000 })
      .toEqual({
        pressed: 'true',
        count: '1',
      });

    await cheer.click();
    await expect.poll(() => cheerState(cheer)).toEqual({ pressed: 'false', count: '0' });
    await beech.reload();
    await expect
      .poll(() => cheerState(cheer), { timeout: 10_000 })
      .toEqual({
        pressed: 'false',
        count: '0',
      });
  });
});

describe('comments', () => {
  it('shows a comment with its link clickable and its markup as text; the author deletes it', async () => {
    const id = await entryInFeed('beech', 'ash', 'Talisker 10');
    const beech = await openAs('beech', '/activity');
    const entry = card(beech, 'Talisker 10');
    await commentsButton(entry, 'Talisker 10').click();
    await thread(beech).getByText('No comments yet.').waitFor();

    // Nothing to send: said at once, nothing sent.
    await thread(beech).getByRole('button', { name: 'Comment', exact: true }).click();
    await thread(beech).getByRole('alert').filter({ hasText: 'Comment is required' }).waitFor();

    const text = 'Tour: https://talisker.example/visit. <b>x</b> <script>alert(1)</script>';
    await thread(beech).getByLabel('Your comment').fill(text);
    await thread(beech).getByText(`${text.length} / 1,000`).waitFor();
    await writeComment(beech, text);
    const mine = comment(beech, 'Tour:');
    const link = mine.getByRole('link', { name: 'https://talisker.example/visit', exact: true });
    expect(await link.getAttribute('href')).toBe('https://talisker.example/visit');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('nofollow noopener noreferrer');
    // The markup is shown as typed, and made no element.
    const content = mine.locator('.comment__content');
    expect(await content.textContent()).toBe(text);
    expect(await content.locator('b, script').count()).toBe(0);
    expect(await mine.getByRole('link', { name: 'Beech Malter' }).getAttribute('href')).toBe(
      '/users/beech',
    );
    expect(await thread(beech).getByLabel('Your comment').inputValue()).toBe('');

    // The card counts it, and a new page shows the same thread.
    await beech.keyboard.press('Escape');
    await thread(beech).waitFor({ state: 'detached' });
    await entry
      .getByRole('button', { name: 'Comments: Talisker 10, 1 comment', exact: true })
      .waitFor();
    expect(
      ((await commentsButton(entry, 'Talisker 10').textContent()) ?? '').replace(/\D/g, ''),
    ).toBe('1');
    await beech.reload();
    await commentsButton(entry, 'Talisker 10').click();
    await comment(beech, 'Tour:').waitFor();

    // Delete asks first; Cancel keeps it.
    await mine.getByRole('button', { name: 'Delete comment by Beech Malter' }).click();
    await mine.getByRole('button', { name: 'Cancel' }).click();
    await mine.getByRole('button', { name: 'Delete comment by Beech Malter' }).click();
    await mine.getByRole('button', { name: 'Yes, delete' }).click();
    await thread(beech).getByText('No comments yet.').waitFor();
    const { body } = await call(beech, 'GET', `/api/beverages/${id}/comments`);
    expect((body as { comments: unknown[] }).comments).toEqual([]);
  });

  it('the owner deletes someone else’s comment; nobody else may', async () => {
    const id = await entryInFeed('larch', 'ash', 'Lagavulin 16');
    const larch = await openAs('larch', '/activity');
    expect(
      taken(
        (await call(larch, 'POST', `/api/beverages/${id}/comments`, { content: 'Smoky!' })).status,
      ),
    ).toBe(true);
    const beech = await openAs('beech', '/');
    expect(
      taken(
        (await call(beech, 'POST', `/api/beverages/${id}/comments`, { content: 'Iodine.' })).status,
      ),
    ).toBe(true);

    // Larch sees both, oldest first, and may delete only their own.
    await commentsButton(card(larch, 'Lagavulin 16'), 'Lagavulin 16').click();
    await comment(larch, 'Iodine.').waitFor();
    expect(await comments(larch).locator('.comment__content').allTextContents()).toEqual([
      'Smoky!',
      'Iodine.',
    ]);
    expect(
      await comment(larch, 'Smoky!')
        .getByRole('button', { name: /^Delete/ })
        .count(),
    ).toBe(1);
    expect(
      await comment(larch, 'Iodine.')
        .getByRole('button', { name: /^Delete/ })
        .count(),
    ).toBe(0);

    // Ash, on their own card, deletes Larch's comment.
    const ash = await openAs('ash', '/');
    await commentsButton(ash, 'Lagavulin 16').first().click();
    const smoky = comment(ash, 'Smoky!');
    await smoky.getByRole('button', { name: 'Delete comment by Larch Kiln' }).click();
    await smoky.getByRole('button', { name: 'Yes, delete' }).click();
    await smoky.waitFor({ state: 'detached' });
    expect(await comments(ash).locator('.comment__content').allTextContents()).toEqual(['Iodine.']);
    const { body } = await call(ash, 'GET', `/api/beverages/${id}/comments`);
    expect((body as { comments: { content: string }[] }).comments.map((c) => c.content)).toEqual([
      'Iodine.',
    ]);
  });

  it('blocks a commenter from the thread: their comment leaves it, and no Block on one’s own', async () => {
    const id = await entryInFeed('larch', 'ash', 'Talisker 10');
    const larch = await openAs('larch', '/activity');
    const beech = await openAs('beech', '/');
    for (const [page, content] of [
      [larch, 'Pepper.'],
      [beech, 'Sea salt.'],
    ] as const) {
      const answer = await call(page, 'POST', `/api/beverages/${id}/comments`, { content });
      expect(taken(answer.status)).toBe(true);
    }
    await commentsButton(card(larch, 'Talisker 10'), 'Talisker 10').click();
    await comment(larch, 'Sea salt.').waitFor();
    expect(
      await comment(larch, 'Pepper.')
        .getByRole('button', { name: /^Block/ })
        .count(),
    ).toBe(0);
    await comment(larch, 'Sea salt.').getByRole('button', { name: 'Block Beech Malter' }).click();
    const ask = larch.getByRole('dialog', { name: 'Block Beech Malter?' });
    await ask.getByRole('button', { name: 'Block', exact: true }).click();
    await comment(larch, 'Sea salt.').waitFor({ state: 'detached' });
    expect(await comments(larch).locator('.comment__content').allTextContents()).toEqual([
      'Pepper.',
    ]);
    const { body } = await call(larch, 'GET', '/api/users/blocks');
    expect(
      (body as { blocks: { username: string | null }[] }).blocks.map((b) => b.username),
    ).toEqual(['beech']);
    // Lifted again, so the other tests of this file see every comment.
    const blockId = (body as { blocks: { id: number }[] }).blocks[0]!.id;
    expect((await call(larch, 'DELETE', `/api/users/blocks/${blockId}`)).status).toBe(204);
  });

  it('shows the server’s refusal under the form', async () => {
    const id = await entryInFeed('beech', 'ash', 'Glenfarclas 105');
    const beech = await openAs('beech', '/activity');
    await commentsButton(card(beech, 'Glenfarclas 105'), 'Glenfarclas 105').click();
    await thread(beech).getByText('No comments yet.').waitFor();
    // The entry is gone while the thread is open.
    const ash = await openAs('ash', '/');
    expect((await call(ash, 'DELETE', `/api/beverages/${id}`)).status).toBe(204);
    await thread(beech).getByLabel('Your comment').fill('Cask strength!');
    await thread(beech).getByRole('button', { name: 'Comment', exact: true }).click();
    const refusal = thread(beech).getByRole('alert');
    await refusal.waitFor();
    expect((await refusal.textContent())?.trim()).not.toBe('');
    expect(await thread(beech).getByLabel('Your comment').inputValue()).toBe('Cask strength!');
  });

  it('fits a 320 px phone: the thread does not scroll sideways, every target is 44 px', async () => {
    const id = await entryInFeed('beech', 'ash', 'Springbank 10');
    const beech = await openAs('beech', '/activity');
    const long = `https://springbank.example/${'a'.repeat(120)} and a long word ${'b'.repeat(80)}`;
    expect(
      taken((await call(beech, 'POST', `/api/beverages/${id}/comments`, { content: long })).status),
    ).toBe(true);
    await beech.setViewportSize({ width: 320, height: 700 });
    await beech.reload();
    const entry = card(beech, 'Springbank 10');
    await cheerButton(entry, 'Springbank 10').waitFor();
    expect(await scrollWidth(beech)).toBeLessThanOrEqual(320);
    expect(await smallTargets(beech)).toEqual([]);
    await commentsButton(entry, 'Springbank 10').click();
    await comment(beech, 'springbank').waitFor();
    expect(await scrollWidth(beech)).toBeLessThanOrEqual(320);
    expect(await smallTargets(beech)).toEqual([]);
  });
});

describe('the Alerts of cheers and comments', () => {
  it('tells the owner who cheered and who commented on which entry, each dismissed with one button', async () => {
    const id = await entryInFeed('larch', 'ash', 'Ardbeg 10');
    const larch = await openAs('larch', '/activity');
    expect(taken((await call(larch, 'POST', `/api/beverages/${id}/cheer`, {})).status)).toBe(true);
    expect(
      taken(
        (await call(larch, 'POST', `/api/beverages/${id}/comments`, { content: 'Peat!' })).status,
      ),
    ).toBe(true);
    await delivered();

    const ash = await openAs('ash', '/');
    await ash.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    const panel = ash.getByRole('region', { name: 'Alerts' });
    for (const text of [
      'Larch Kiln cheered your Ardbeg 10',
      'Larch Kiln commented on your Ardbeg 10',
    ]) {
      const item = panel.getByRole('listitem').filter({ hasText: text });
      await item.waitFor();
      expect(await item.getByRole('button').allTextContents()).toEqual(['Dismiss']);
      await item.getByRole('button', { name: 'Dismiss' }).click();
      await item.getByText('Dismissed').waitFor();
    }
  });

  it("leads from a comment's or a cheer's alert to the entry with its thread open; closing the thread leaves focus on the entry's comments", async () => {
    const id = await entryInFeed('larch', 'ash', 'Walk Talk Stout');
    const larch = await openAs('larch', '/activity');
    expect(taken((await call(larch, 'POST', `/api/beverages/${id}/cheer`, {})).status)).toBe(true);
    const comment = { content: 'Roasty, and smooth as a walk.' };
    expect(
      taken((await call(larch, 'POST', `/api/beverages/${id}/comments`, comment)).status),
    ).toBe(true);
    await delivered();

    const ash = await openAs('ash', '/');
    const panel = ash.getByRole('region', { name: 'Alerts', exact: true });
    const thread = ash.getByRole('dialog', { name: 'Comments' });
    const address = () => {
      const url = new URL(ash.url());
      return url.pathname + url.search;
    };
    for (const [text, link] of [
      ['Larch Kiln commented on your Walk Talk Stout', 'See the comment: Walk Talk Stout'],
      ['Larch Kiln cheered your Walk Talk Stout', 'See the entry: Walk Talk Stout'],
    ] as const) {
      await ash.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
      const item = panel.getByRole('listitem').filter({ hasText: text });
      await item.getByRole('link', { name: link }).click();
      // The thread open over the entry's card, and the panel closed behind it.
      await thread.getByText(comment.content).waitFor();
      expect(address()).toBe(`/?entry=${id}`);
      expect(await panel.count()).toBe(0);
      await ash.keyboard.press('Escape');
      await thread.waitFor({ state: 'detached' });
      const card = ash
        .getByRole('region', { name: 'From an alert' })
        .getByRole('article', { name: 'Walk Talk Stout', exact: true });
      const comments = card.getByRole('button', { name: 'Comments: Walk Talk Stout, 1 comment' });
      await expect
        .poll(() => comments.evaluate((button) => button === button.ownerDocument.activeElement))
        .toBe(true);
      await ash.goto('/');
    }
  });
});
