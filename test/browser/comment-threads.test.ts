import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { callApi } from '../helpers/browser.ts';
import { startFakeRemote } from '../helpers/fake-remote.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';
import { scrollWidth, smallTargets } from './phone-checks.ts';
import { seedEntry } from './vault-seed.ts';

/*
 * Threads under an entry in the browser, with the real server: answers under their parent
 * (three levels, then 'in reply to {name}'), a reply written in place (Escape and Cancel give
 * focus back to 'Reply', sending says so and focuses the reply), a private reply read only by
 * whom it answers, a deleted comment kept for its answers, mentions as links, and a comment's
 * cheer; each at a desktop and a 320 px phone width, with axe's check.
 */

const PEOPLE = [
  ['ash', 'Ash Cooper'],
  ['beech', 'Beech Malter'],
  ['larch', 'Larch Kiln'],
  ['fir', 'Fir Stills'],
] as const;

const people = peopleInBrowsers(PEOPLE);
const { openAs } = people;

const WIDTHS = [
  ['desktop', 1280],
  ['phone', 320],
] as const;

/** Background deliveries (feed items, notifications) are done. */
const delivered = () => people.server.ctx.outbox.idle();

/** Everyone but Ash follows Ash (once). */
let following = false;

/** Ash logs `name`, which reaches the feeds of everyone else; its id. */
async function ashLogs(name: string) {
  if (!following) {
    for (const [username] of PEOPLE.slice(1)) {
      people.server.ctx.follows.follow({ id: people.userId(username) }, people.userId('ash'));
    }
    following = true;
  }
  const entry = await seedEntry(people.server, 'ash', { name, subtype: 'Single Malt' });
  await delivered();
  return entry.id;
}

interface PostedComment {
  id: number;
  parentId: number | null;
  audience: string;
  deleted: boolean;
  content: string;
}

/** `page`'s user comments on entry `id` through the API (answering `inReplyTo`): the comment. */
async function postComment(
  page: Page,
  id: number,
  content: string,
  options: { inReplyTo?: number; private?: boolean } = {},
): Promise<PostedComment> {
  const answer = await callApi(page, 'POST', `/api/beverages/${id}/comments`, {
    content,
    ...options,
  });
  expect(answer.status).toBe(201);
  return (answer.body as { comment: PostedComment }).comment;
}

/** The thread of entry `id` as the API gives it to `page`'s user. */
async function threadOf(page: Page, id: number): Promise<PostedComment[]> {
  const answer = await callApi(page, 'GET', `/api/beverages/${id}/comments`);
  expect(answer.status).toBe(200);
  return (answer.body as { comments: PostedComment[] }).comments;
}

/** `text` as a regular expression that matches it literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The button of `name`'s card on /activity that opens its thread, named with its count. */
const commentsButton = (page: Page, name: string, count = '\\d+') =>
  page
    .getByRole('article', { name, exact: true })
    .getByRole('button', { name: new RegExp(`^Comments: ${literal(name)}, ${count} comments?$`) });

/** Opens the thread of `name` from its card on /activity at `width`. */
async function openThread(username: string, name: string, width: number) {
  const page = await openAs(username, '/activity');
  await page.setViewportSize({ width, height: 800 });
  await commentsButton(page, name).click();
  await thread(page).getByRole('list', { name: 'Comments' }).waitFor();
  return page;
}

const thread = (page: Page) => page.getByRole('dialog', { name: 'Comments' });
const comment = (page: Page, text: string) =>
  thread(page)
    .getByRole('list', { name: 'Comments' })
    .getByRole('listitem')
    .filter({ hasText: text });

/** The deleted comment of the thread (its answers say 'in reply to a deleted comment'). */
const deletedComment = (page: Page) =>
  thread(page)
    .getByRole('list', { name: 'Comments' })
    .getByRole('listitem')
    .filter({ has: page.getByText('A deleted comment', { exact: true }) });

/** Waits for the thread's note that says `message` (the page's notes are behind the dialog). */
const note = (page: Page, message: string) =>
  thread(page).getByRole('status').filter({ hasText: message }).waitFor();

/** Whether `locator` has the focus. */
const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement);

/** How far right of the list's left edge a comment starts, in CSS pixels. */
const indent = (item: Locator) =>
  item.evaluate(
    (element) =>
      element.getBoundingClientRect().left - element.parentElement!.getBoundingClientRect().left,
  );

/** The page fits its width and every target is 44 px (on a phone), and axe finds nothing serious. */
async function checkLayout(page: Page, width: number) {
  expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
  if (width <= 560) expect(await smallTargets(page)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
}

describe.each(WIDTHS)('a thread at %s width', (_label, width) => {
  it('answers a comment in place: Escape and Cancel give focus back, sending focuses the reply', async () => {
    const id = await ashLogs(`Oban 14 (${width})`);
    const larch = await openAs('larch', '/activity');
    const first = await postComment(larch, id, 'Orange peel and sea salt.');

    const beech = await openThread('beech', `Oban 14 (${width})`, width);
    const peel = comment(beech, 'Orange peel');
    const reply = peel.getByRole('button', { name: 'Reply to Larch Kiln' });
    const field = thread(beech).getByRole('textbox', { name: 'Reply to Larch Kiln' });
    await reply.click();
    await expect.poll(() => isFocused(field)).toBe(true);
    expect(await reply.getAttribute('aria-expanded')).toBe('true');
    await thread(beech).getByRole('checkbox', { name: 'Only Larch Kiln' }).waitFor();
    await checkLayout(beech, width);

    // Escape closes the reply, not the thread.
    await beech.keyboard.press('Escape');
    await field.waitFor({ state: 'detached' });
    expect(await thread(beech).count()).toBe(1);
    await expect.poll(() => isFocused(reply)).toBe(true);
    // So does Cancel.
    await reply.click();
    await thread(beech).getByRole('button', { name: 'Cancel' }).click();
    await field.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(reply)).toBe(true);

    await reply.click();
    await field.fill('Agreed, and a little smoke.');
    await thread(beech).getByRole('button', { name: 'Send reply' }).click();
    await note(beech, 'Reply to Larch Kiln sent');
    const answer = comment(beech, 'a little smoke');
    await expect.poll(() => isFocused(answer)).toBe(true);
    await field.waitFor({ state: 'detached' });
    expect(await indent(answer)).toBeGreaterThan(await indent(peel));
    expect(await answer.textContent()).toContain('in reply to Larch Kiln');

    // The server has it under Larch's comment, public.
    const saved = (await threadOf(beech, id)).find((item) => item.content.includes('smoke'));
    expect(saved).toMatchObject({ parentId: first.id, audience: 'PUBLIC' });
    await checkLayout(beech, width);
  });

  it('indents three levels; a deeper answer stays at the third and says whom it answers', async () => {
    const id = await ashLogs(`Talisker 10 (${width})`);
    const [larch, beech, ash] = await Promise.all([
      openAs('larch', '/activity'),
      openAs('beech', '/activity'),
      openAs('ash', '/'),
    ]);
    const one = await postComment(larch, id, 'Level one: pepper.');
    const two = await postComment(beech, id, 'Level two: and smoke.', { inReplyTo: one.id });
    const three = await postComment(ash, id, 'Level three: from the cask.', { inReplyTo: two.id });
    await postComment(larch, id, 'Level four: which cask?', { inReplyTo: three.id });
    await postComment(beech, id, 'Another first level.');

    const fir = await openThread('fir', `Talisker 10 (${width})`, width);
    const texts = await thread(fir).locator('.comment__content').allTextContents();
    expect(texts).toEqual([
      'Level one: pepper.',
      'Level two: and smoke.',
      'Level three: from the cask.',
      'Level four: which cask?',
      'Another first level.',
    ]);
    const [first, second, third, fourth] = await Promise.all(
      ['Level one', 'Level two', 'Level three', 'Level four'].map((text) =>
        indent(comment(fir, text)),
      ),
    );
    expect(second!).toBeGreaterThan(first!);
    expect(third!).toBeGreaterThan(second!);
    expect(fourth).toBe(third);
    // Shown, not only said: the indentation cannot tell whom it answers.
    await comment(fir, 'Level four').getByText('in reply to Ash Cooper').waitFor();
    expect(await indent(comment(fir, 'Another first level'))).toBe(first);
    await checkLayout(fir, width);
  });

  it('sends a private reply that only its author and whom it answers read', async () => {
    const id = await ashLogs(`Lagavulin 16 (${width})`);
    const larch = await openAs('larch', '/activity');
    await postComment(larch, id, 'Iodine, then toffee.');

    const beech = await openThread('beech', `Lagavulin 16 (${width})`, width);
    await comment(beech, 'Iodine').getByRole('button', { name: 'Reply to Larch Kiln' }).click();
    await thread(beech)
      .getByRole('textbox', { name: 'Reply to Larch Kiln' })
      .fill('Just between us: too much iodine.');
    await thread(beech).getByRole('checkbox', { name: 'Only Larch Kiln' }).check();
    await thread(beech).getByRole('button', { name: 'Send reply' }).click();
    await note(beech, 'Private reply sent to Larch Kiln');
    const secret = comment(beech, 'Just between us');
    await secret.getByText('Private reply', { exact: true }).waitFor();
    await expect.poll(() => isFocused(secret)).toBe(true);
    await checkLayout(beech, width);

    // Larch reads it, marked so; Fir, who also sees the entry, does not, nor its count.
    const larchThread = await openThread('larch', `Lagavulin 16 (${width})`, width);
    await comment(larchThread, 'Just between us')
      .getByText('Private reply', { exact: true })
      .waitFor();
    const firFeed = await openAs('fir', '/activity');
    await commentsButton(firFeed, `Lagavulin 16 (${width})`, '1').waitFor();
    const firThread = await openThread('fir', `Lagavulin 16 (${width})`, width);
    await comment(firThread, 'Iodine').waitFor();
    expect(await comment(firThread, 'Just between us').count()).toBe(0);
    expect((await threadOf(firThread, id)).map((item) => item.content)).toEqual([
      'Iodine, then toffee.',
    ]);
  });

  it('keeps a deleted comment’s answers under “A deleted comment”', async () => {
    const id = await ashLogs(`Ardbeg 10 (${width})`);
    const beech = await openAs('beech', '/activity');
    const larchPage = await openAs('larch', '/activity');
    const parent = await postComment(larchPage, id, 'Peat bomb, to be deleted.');
    await postComment(beech, id, 'Tar and lime.', { inReplyTo: parent.id });

    const larch = await openThread('larch', `Ardbeg 10 (${width})`, width);
    const doomed = comment(larch, 'Peat bomb');
    await doomed.getByRole('button', { name: 'Delete comment by Larch Kiln' }).click();
    await doomed.getByRole('button', { name: 'Yes, delete' }).click();
    await note(larch, 'Comment deleted');
    const gone = deletedComment(larch);
    await gone.waitFor();
    expect(await gone.getByRole('button').count()).toBe(0);
    expect(await comment(larch, 'Larch Kiln').count()).toBe(0);
    await comment(larch, 'Tar and lime').getByText('in reply to a deleted comment').waitFor();
    await checkLayout(larch, width);

    // Everyone reading the thread sees the same: the answer stays, under the deleted comment.
    const fir = await openThread('fir', `Ardbeg 10 (${width})`, width);
    expect(
      await thread(fir).locator('.comment__content, .comment__deleted').allTextContents(),
    ).toEqual(['A deleted comment', 'Tar and lime.']);
    expect(await indent(comment(fir, 'Tar and lime'))).toBeGreaterThan(
      await indent(deletedComment(fir)),
    );
    await checkLayout(fir, width);
  });

  it('links a mention to the person’s profile', async () => {
    const id = await ashLogs(`Springbank 10 (${width})`);
    const beech = await openAs('beech', '/activity');
    await postComment(beech, id, 'Ask @larch about the cask, or @nobody.');

    const fir = await openThread('fir', `Springbank 10 (${width})`, width);
    const said = comment(fir, 'Ask');
    const mention = said.getByRole('link', { name: '@larch', exact: true });
    expect(await mention.getAttribute('href')).toBe('/users/larch');
    // Nobody goes by @nobody here: it stays text.
    expect(await said.getByRole('link', { name: '@nobody' }).count()).toBe(0);
    expect(await said.locator('.comment__content').textContent()).toBe(
      'Ask @larch about the cask, or @nobody.',
    );
    await checkLayout(fir, width);
    await mention.click();
    await thread(fir).waitFor({ state: 'detached' });
    await fir.getByRole('heading', { level: 1, name: 'larch' }).waitFor();
    expect(new URL(fir.url()).pathname).toBe('/users/larch');
  });

  it('cheers a comment and takes the cheer back, saying so each time', async () => {
    const id = await ashLogs(`Glenfarclas 105 (${width})`);
    const larch = await openAs('larch', '/activity');
    const first = await postComment(larch, id, 'Sherry and cask strength.');

    const beech = await openThread('beech', `Glenfarclas 105 (${width})`, width);
    const cheer = comment(beech, 'Sherry').getByRole('button', {
      name: /^Cheer the comment by Larch Kiln, \d+ cheers?$/,
    });
    const state = async () => ({
      pressed: await cheer.getAttribute('aria-pressed'),
      count: ((await cheer.textContent()) ?? '').replace(/\D/g, ''),
    });
    expect(await state()).toEqual({ pressed: 'false', count: '0' });
    await cheer.click();
    await note(beech, 'You cheered the comment by Larch Kiln');
    await expect.poll(state).toEqual({ pressed: 'true', count: '1' });
    await checkLayout(beech, width);

    // The server has it, and Larch is told.
    expect((await threadOf(beech, id)).find((item) => item.id === first.id)).toMatchObject({
      cheerCount: 1,
      cheeredByMe: true,
    });
    await delivered();
    const alerts = await openAs('larch', '/');
    await alerts.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    await alerts
      .getByRole('region', { name: 'Alerts' })
      .getByRole('listitem')
      .filter({ hasText: `Beech Malter cheered your comment on Glenfarclas 105 (${width})` })
      .waitFor();

    await cheer.click();
    await note(beech, 'Cheer of the comment by Larch Kiln taken back');
    await expect.poll(state).toEqual({ pressed: 'false', count: '0' });
    expect((await threadOf(beech, id)).find((item) => item.id === first.id)).toMatchObject({
      cheerCount: 0,
      cheeredByMe: false,
    });
  });
});

describe('a fediverse account mentioned in a comment', () => {
  it('links to its page here, which looks it up and offers to follow it', async () => {
    sharedTestCertificate().trustInThisProcess();
    const remote = await startFakeRemote({ https: true });
    try {
      remote.addAccount('maplefan', { name: 'Maple Fan', summary: '<p>Rye, mostly.</p>' });
      const account = remote.account('maplefan');
      const handle = `@${remote.handle('maplefan')}`;
      // The vault knows the account already (a mention names only accounts it knows).
      people.server.ctx.actors.saveRemote(
        {
          uri: account.id,
          inboxUrl: account.inbox,
          sharedInboxUrl: null,
          handle,
          displayName: 'Maple Fan',
          summary: 'Rye, mostly.',
          avatarUrl: null,
        },
        Date.now(),
      );
      people.server.ctx.users.update(people.userId('fir'), { activityPubEnabled: true });
      const id = await ashLogs('Rittenhouse Rye');
      await postComment(await openAs('beech', '/activity'), id, `Ask ${handle} about rye.`);

      const fir = await openThread('fir', 'Rittenhouse Rye', 1280);
      const mention = comment(fir, 'about rye').getByRole('link', { name: handle, exact: true });
      expect(await mention.getAttribute('href')).toBe(
        `/users/@maplefan@${encodeURIComponent(remote.host)}`,
      );
      await mention.click();
      await fir.getByRole('heading', { level: 1, name: handle }).waitFor();
      // The first lookup loads the federation code in the server: it may take a while.
      const found = fir.getByRole('group', { name: `Account ${handle}` });
      await found.waitFor({ timeout: 30_000 });
      expect(await found.textContent()).toContain('Maple Fan');
      await found.getByRole('button', { name: 'Follow' }).click();
      await fir
        .locator('.note--success', { hasText: 'Follow request sent to Maple Fan' })
        .waitFor();
      await fir.setViewportSize({ width: 320, height: 800 });
      await checkLayout(fir, 320);
    } finally {
      await remote.close();
    }
  });
});

describe('the Alerts of answers', () => {
  it('tells the author of a comment that it was answered, and leads to the thread', async () => {
    const id = await ashLogs('Highland Park 12');
    const larch = await openAs('larch', '/activity');
    const first = await postComment(larch, id, 'Heather honey.');
    const beech = await openAs('beech', '/activity');
    await postComment(beech, id, 'And a wisp of smoke.', { inReplyTo: first.id });
    await delivered();

    const page = await openAs('larch', '/');
    await page.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    const item = page
      .getByRole('region', { name: 'Alerts' })
      .getByRole('listitem')
      .filter({ hasText: 'Beech Malter answered your comment on Highland Park 12' });
    await item.getByText('“And a wisp of smoke.”').waitFor();
    await item.getByRole('link', { name: 'See the comment: Highland Park 12' }).click();
    await comment(page, 'a wisp of smoke').waitFor();
  });
});
