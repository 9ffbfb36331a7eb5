import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpsVault } from '../helpers/https-vault.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import type { TestServer } from '../helpers/server.ts';

/*
 * A conversation across two real vaults, in real browsers. Alice and Carol are on vault A (each
 * in a browser; Carol follows Alice), Bob on vault B (https, behind a proxy, driven through his
 * API) follows Alice. Alice logs a followers-only entry; Bob comments on it from B (level 1);
 * Alice answers him in place (level 2); Carol answers Alice and mentions Bob (level 3); Alice
 * answers Bob privately; Alice cheers Bob's comment and Carol Alice's. Each person sees exactly
 * what they should: Carol never the private answer, Bob his notifications on B. Then Bob blocks
 * Alice from B: his comment leaves her thread, its answers stay under "A deleted comment".
 */

const people = peopleInBrowsers(
  [
    { username: 'alice', password: 'alice-password', fullName: 'Alice Malt' },
    { username: 'carol', password: 'carol-password', fullName: 'Carol Cask' },
  ].map((person) => ({ ...person, activityPubEnabled: true })),
  { remote: true },
);
let a: TestServer;
let b: HttpsVault;
let bobCookie: string;
let alice: Page;
let carol: Page;
let entryId: number;
const ENTRY = 'Springbank 10';

beforeAll(async () => {
  [a, b] = [people.server, people.remote];
  await a.ctx.follows.follow({ id: people.userId('carol') }, people.userId('alice'));
  bobCookie = await b.addUser('bob');
  alice = await people.openAs('alice');
  carol = await people.openAs('carol');
}, 90_000);

const bobOnB = async (path: string, method = 'GET', body?: unknown) => {
  const res = await fetch(`${b.origin}/api${path}`, {
    method,
    headers: {
      cookie: bobCookie,
      origin: b.origin,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
};

interface Note {
  type: string;
  sender: { fullName: string };
  payload: { message?: string };
}
const bobsNotifications = async () =>
  ((await bobOnB('/notifications')).body as { notifications: Note[] }).notifications;

/** Polls generously: a delivery between the two vaults can take many seconds on a busy machine. */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 45_000 });

const threadOf = (page: Page) => page.getByRole('dialog', { name: 'Comments' });
const commentIn = (page: Page, text: string) =>
  threadOf(page)
    .getByRole('list', { name: 'Comments' })
    .getByRole('listitem')
    .filter({ hasText: text });

/** Opens the thread of the entry from its card on `page` (reloading until `count` is shown). */
async function openThread(page: Page, path: string, count: number) {
  const label = new RegExp(`^Comments: ${ENTRY}, ${count} comments?$`);
  await eventually(async () => {
    await page.goto(path);
    const button = page.getByRole('article', { name: ENTRY, exact: true }).first();
    await button.waitFor();
    return button.getByRole('button', { name: label }).count();
  }).toBe(1);
  await page
    .getByRole('article', { name: ENTRY, exact: true })
    .first()
    .getByRole('button', { name: label })
    .click();
  await threadOf(page).getByRole('list', { name: 'Comments' }).waitFor();
}

/** The thread's comments as `page`'s user reads them through the API: text and parent text. */
async function apiThread(page: Page) {
  const comments = (await page.evaluate(
    async (id) =>
      ((await (await fetch(`/api/beverages/${id}/comments`)).json()) as { comments: unknown })
        .comments,
    entryId,
  )) as { id: number; parentId: number | null; content: string; deleted: boolean }[];
  const byId = new Map(comments.map((c) => [c.id, c]));
  const text = (c: (typeof comments)[number] | undefined) =>
    !c ? '?' : c.deleted ? '(deleted)' : c.content;
  return comments.map((c) => [text(c), c.parentId === null ? null : text(byId.get(c.parentId))]);
}

async function replyInPlace(page: Page, to: string, who: string, text: string, only = false) {
  await commentIn(page, to)
    .first()
    .getByRole('button', { name: `Reply to ${who}` })
    .click();
  await threadOf(page)
    .getByRole('textbox', { name: `Reply to ${who}` })
    .fill(text);
  if (only)
    await threadOf(page)
      .getByRole('checkbox', { name: `Only ${who}` })
      .check();
  await threadOf(page).getByRole('button', { name: 'Send reply' }).click();
  await commentIn(page, text).waitFor();
}

describe('a thread across two vaults, in browsers', { timeout: 180_000 }, () => {
  it('three levels, a private answer, a mention and cheers of comments, each seen by whom it should', async () => {
    // Bob follows Alice from B; Alice logs a followers-only entry that reaches his feed.
    const actorUri = `${a.url}/users/alice`;
    expect((await bobOnB('/users/lookup', 'POST', { query: actorUri })).status).toBe(200);
    expect((await bobOnB('/users/remote-follows', 'POST', { actorUri })).status).toBe(201);
    await eventually(async () => JSON.stringify((await bobOnB('/users/following')).body)).toContain(
      '"ACCEPTED"',
    );
    entryId = await alice.evaluate(async (name) => {
      const form = new FormData();
      form.append('name', name);
      form.append('type', 'WHISKEY');
      form.append('visibility', 'FOLLOWERS');
      const res = await fetch('/api/beverages', { method: 'POST', body: form });
      return ((await res.json()) as { beverage: { id: number } }).beverage.id;
    }, ENTRY);
    let remoteId: number | undefined;
    await eventually(async () => {
      const { activities } = (await bobOnB('/activity')).body as {
        activities: { kind: string; beverage: { id: number; name: string } }[];
      };
      remoteId = activities.find((i) => i.kind === 'remote' && i.beverage.name === ENTRY)?.beverage
        .id;
      return remoteId !== undefined;
    }).toBe(true);

    // Level 1: Bob, from his vault.
    const level1 = 'Peat and salt, a little sherry.';
    const posted = await bobOnB(`/activity/remote-entries/${remoteId}/comments`, 'POST', {
      content: level1,
    });
    expect(posted.status).toBe(201);

    // Level 2: Alice answers Bob in place.
    await openThread(alice, '/', 1);
    const level2 = 'The sherry is from the second fill.';
    await replyInPlace(alice, level1, 'Bob', level2);

    // Level 3: Carol answers Alice and mentions Bob by his handle.
    await openThread(carol, '/activity', 2);
    const level3 = `Second fill? @bob@${b.host} would know.`;
    await replyInPlace(carol, level2, 'Alice Malt', level3);
    await commentIn(carol, level3)
      .getByRole('link', { name: `@bob@${b.host}` })
      .waitFor();

    // A private answer from Alice to Bob.
    await alice.reload();
    await openThread(alice, '/', 3);
    const secret = 'Between us: it was a gift from the distillery.';
    await replyInPlace(alice, level1, 'Bob', secret, true);
    await commentIn(alice, secret).getByText('Private reply').waitFor();

    // Cheers of comments: Alice cheers Bob's, Carol cheers Alice's.
    await commentIn(alice, level1)
      .first()
      .getByRole('button', { name: /^Cheer the comment by Bob, 0 cheers$/ })
      .click();
    await commentIn(alice, level1)
      .first()
      .getByRole('button', { name: /^Cheer the comment by Bob, 1 cheer$/ })
      .waitFor();
    await carol.reload();
    await openThread(carol, '/activity', 3);
    await commentIn(carol, level2)
      .first()
      .getByRole('button', { name: /^Cheer the comment by Alice Malt, 0 cheers$/ })
      .click();

    // What each person sees. Alice: all four, in tree order, the private one marked.
    expect(await apiThread(alice)).toEqual([
      [level1, null],
      [level2, level1],
      [level3, level2],
      [secret, level1],
    ]);
    // Carol: the thread without the private answer, and a count that does not reveal it.
    expect(await apiThread(carol)).toEqual([
      [level1, null],
      [level2, level1],
      [level3, level2],
    ]);
    expect(await commentIn(carol, secret).count()).toBe(0);
    // Alice hears of Carol's cheer in her Alerts.
    await alice.reload();
    await alice.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    await alice
      .getByRole('region', { name: 'Alerts' })
      .getByRole('listitem')
      .filter({ hasText: 'Carol Cask cheered your comment' })
      .waitFor();
    await alice.keyboard.press('Escape');

    // Bob, on his vault: told of the answer, of the mention, of the private answer and of the
    // cheer of his comment; Carol's answer to Alice does not name him as answered.
    await eventually(async () => {
      const notes = await bobsNotifications();
      return {
        answered: notes.some((n) => n.payload.message?.includes(level2)),
        mentioned: notes.some(
          (n) => n.sender.fullName === 'Carol Cask' && n.payload.message?.includes('would know'),
        ),
        privately: notes.some((n) => n.payload.message?.includes(secret)),
        cheered: notes.some((n) => n.type === 'COMMENT_CHEER'),
      };
    }).toEqual({ answered: true, mentioned: true, privately: true, cheered: true });
  });

  it('Bob blocks Alice from his vault: his comment leaves her thread, its answers stay under a deleted comment', async () => {
    expect(
      (await bobOnB('/users/blocks', 'POST', { actorUri: `${a.url}/users/alice` })).status,
    ).toBeLessThan(300);
    await eventually(() => apiThread(alice)).toEqual([
      ['(deleted)', null],
      ['The sherry is from the second fill.', '(deleted)'],
      [`Second fill? @bob@${b.host} would know.`, 'The sherry is from the second fill.'],
      ['Between us: it was a gift from the distillery.', '(deleted)'],
    ]);
    await openThread(alice, '/', 3);
    await threadOf(alice).getByText('A deleted comment', { exact: true }).waitFor();
    expect(await commentIn(alice, 'Peat and salt').count()).toBe(0);
    // Carol sees the same: the deleted comment and its answers.
    await openThread(carol, '/activity', 2);
    await threadOf(carol).getByText('A deleted comment', { exact: true }).waitFor();
    // Bob no longer follows Alice: her entries stop going to him.
    await eventually(
      async () => ((await bobOnB('/users/following')).body as { remote: unknown[] }).remote.length,
    ).toBe(0);
  });
});
