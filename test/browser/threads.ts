import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { callApi } from '../helpers/browser.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { scrollWidth, smallTargets } from './phone-checks.ts';
import { seedEntry } from './vault-seed.ts';

/*
 * The people, pages and checks of the browser tests of threads (comment-threads.test.ts,
 * comment-mentions-and-cheers.test.ts): Ash logs entries that everyone else follows; the
 * thread of an entry is opened from its card on /activity at a width.
 */

export const WIDTHS = [
  ['desktop', 1280],
  ['phone', 320],
] as const;

const PEOPLE = [
  ['ash', 'Ash Cooper'],
  ['beech', 'Beech Malter'],
  ['larch', 'Larch Kiln'],
  ['fir', 'Fir Stills'],
] as const;

/**
 * A real server and browser with Ash, Beech, Larch and Fir (peopleInBrowsers, whose hooks it
 * registers): `ashLogs` an entry that reaches everyone else's feed, `openThread` of an entry.
 */
export function threadPeople() {
  const people = peopleInBrowsers(PEOPLE);
  /** Background deliveries (feed items, notifications) are done. */
  const delivered = () => people.server.ctx.outbox.idle();
  /** Everyone but Ash follows Ash (once). */
  let following = false;
  return {
    people,
    openAs: people.openAs,
    delivered,
    /** Ash logs `name`, which reaches the feeds of everyone else; its id. */
    async ashLogs(name: string) {
      if (!following) {
        for (const [username] of PEOPLE.slice(1)) {
          await people.server.ctx.follows.follow(
            { id: people.userId(username) },
            people.userId('ash'),
          );
        }
        following = true;
      }
      const entry = await seedEntry(people.server, 'ash', { name, subtype: 'Single Malt' });
      await delivered();
      return entry.id;
    },
    /** Opens the thread of `name` from its card on /activity at `width`. */
    async openThread(username: string, name: string, width: number) {
      const page = await people.openAs(username, '/activity');
      await page.setViewportSize({ width, height: 800 });
      await commentsButton(page, name).click();
      await thread(page).getByRole('list', { name: 'Comments' }).waitFor();
      return page;
    },
  };
}

export interface PostedComment {
  id: number;
  parentId: number | null;
  audience: string;
  deleted: boolean;
  content: string;
}
/** `page`'s user comments on entry `id` through the API (answering `inReplyTo`): the comment. */
export async function postComment(
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
export async function threadOf(page: Page, id: number): Promise<PostedComment[]> {
  const answer = await callApi(page, 'GET', `/api/beverages/${id}/comments`);
  expect(answer.status).toBe(200);
  return (answer.body as { comments: PostedComment[] }).comments;
}

/** `text` as a regular expression that matches it literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The button of `name`'s card on /activity that opens its thread, named with its count. */
export const commentsButton = (page: Page, name: string, count = '\\d+') =>
  page
    .getByRole('article', { name, exact: true })
    .getByRole('button', { name: new RegExp(`^Comments: ${literal(name)}, ${count} comments?$`) });

/** The open thread, and one of its comments by its text. */
export const thread = (page: Page) => page.getByRole('dialog', { name: 'Comments' });
export const comment = (page: Page, text: string) =>
  thread(page)
    .getByRole('list', { name: 'Comments' })
    .getByRole('listitem')
    .filter({ hasText: text });

/** The deleted comment of the thread (its answers say 'in reply to a deleted comment'). */
export const deletedComment = (page: Page) =>
  thread(page)
    .getByRole('list', { name: 'Comments' })
    .getByRole('listitem')
    .filter({ has: page.getByText('A deleted comment', { exact: true }) });

/** Waits for the thread's note that says `message` (the page's notes are behind the dialog). */
export const note = (page: Page, message: string) =>
  thread(page).getByRole('status').filter({ hasText: message }).waitFor();

/** Whether `locator` has the focus. */
export const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement);

/** How far right of the list's left edge a comment starts, in CSS pixels. */
export const indent = (item: Locator) =>
  item.evaluate(
    (element) =>
      element.getBoundingClientRect().left - element.parentElement!.getBoundingClientRect().left,
  );

/** The page fits its width and every target is 44 px (on a phone), and axe finds nothing serious. */
export async function checkLayout(page: Page, width: number) {
  expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
  if (width <= 560) expect(await smallTargets(page)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
}
