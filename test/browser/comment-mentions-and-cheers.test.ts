import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe.ts';
import { startFakeRemote } from '../helpers/fake-remote.ts';
import { sharedTestCertificate } from '../helpers/tls.ts';
import {
  checkLayout,
  comment,
  note,
  postComment,
  thread,
  threadOf,
  threadPeople,
  WIDTHS,
} from './threads.ts';

/*
 * Mentions and cheers of comments in the browser, with the real server: a mention links to the
 * person's profile, or to the page of a fediverse account here, which looks it up and offers to
 * follow it; a comment's cheer and its taking back; the Alerts of an answer and of a mention in
 * a post from elsewhere. At a desktop and a 320 px phone width, with axe's check.
 */

const { people, openAs, delivered, ashLogs, openThread } = threadPeople();

describe.each(WIDTHS)('a comment at %s width', (_label, width) => {
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
      await people.server.ctx.actors.saveRemote(
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
      await people.server.ctx.users.update(people.userId('fir'), { activityPubEnabled: true });
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

describe('the Alerts of answers and mentions', () => {
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
  it('links a mention in a post from elsewhere to the original, in a new tab, with its text', async () => {
    // What the inbox stores for such a post (a Note that mentions Ash and answers no entry here):
    // the account, and a MENTION with the post's text and address.
    const { actors, database } = people.server.ctx;
    const now = Date.now();
    const sender = await actors.saveRemote(
      {
        uri: 'https://elsewhere.example/users/rowan',
        inboxUrl: 'https://elsewhere.example/users/rowan/inbox',
        sharedInboxUrl: null,
        handle: '@rowan@elsewhere.example',
        displayName: 'Rowan Elsewhere',
        summary: '',
        avatarUrl: null,
      },
      now,
    );
    const activity = (await database.database
      .prepare(
        `INSERT INTO activities (actor_id, type, created_at) VALUES (?, 'Create', ?) RETURNING id`,
      )
      .get(sender, now)) as { id: number };
    await database.database
      .prepare(
        `INSERT INTO notifications (recipient_id, type, status, sender_id, activity_id, message, url, created_at)
         VALUES (?, 'MENTION', 'PENDING', ?, ?, ?, ?, ?)`,
      )
      .run(
        people.userId('ash'),
        sender,
        activity.id,
        '@ash have you tried the new rye?',
        'https://elsewhere.example/@rowan/42',
        now,
      );

    const page = await openAs('ash', '/');
    await page.getByRole('button', { name: /^Alerts, \d+ pending$/ }).click();
    const item = page
      .getByRole('region', { name: 'Alerts' })
      .getByRole('listitem')
      .filter({ hasText: 'Rowan Elsewhere mentioned you' });
    await item.getByText('“@ash have you tried the new rye?”').waitFor();
    const original = item.getByRole('link', {
      name: 'See the post on elsewhere.example (opens in a new tab)',
    });
    expect(await original.getAttribute('href')).toBe('https://elsewhere.example/@rowan/42');
    expect(await original.getAttribute('target')).toBe('_blank');
    expect((await original.getAttribute('rel'))?.split(' ')).toContain('noopener');
    expect(await item.getByRole('button').allTextContents()).toEqual(['Dismiss']);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
