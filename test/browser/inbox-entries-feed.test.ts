import { describe, expect, it } from 'vitest';
import { jpeg } from '../helpers/images.ts';
import { peopleInBrowsers } from '../helpers/people-in-browsers.ts';
import { loadedWidth } from './vault-seed.ts';

/*
 * An entry received from a remote vault in /activity, in a real browser: the card shows the
 * actor's name and @name@host handle, the entry read-only ('View only'), the vault's copy of the
 * photo, every remote text as text (markup shows as characters, never as elements), and 'Add to
 * vault' puts an editable copy into the reader's to-try list. The entry is stored through the
 * service the inbox uses (test/federation/inbox-entries-*.test.ts deliver real activities).
 */

const people = peopleInBrowsers([['beech', 'Beech Malter']]);
const ACTOR = 'https://other-vault.example/users/bob';

async function receiveRemoteEntry() {
  const { ctx } = people.server;
  const db = ctx.database.database;
  const t = Date.now();
  const actorId = Number(
    await db
      .prepare(
        `INSERT INTO actors (kind, uri, inbox_url, display_name, handle, created_at, updated_at)
         VALUES ('remote', ?, ?, ?, '@bob@other-vault.example', ?, ?) RETURNING id`,
      )
      .pluck<number>()
      .get(ACTOR, `${ACTOR}/inbox`, 'Bob <em>Brewer</em>', t, t),
  );
  await db
    .prepare(
      `INSERT INTO follows (follower_id, followed_id, state, created_at) VALUES (?, ?, 'ACCEPTED', ?)`,
    )
    .run(await ctx.actors.localActorId(people.userId('beech')), actorId, t);
  const outcome = await ctx.remoteEntries.store(
    actorId,
    {
      noteUri: `${ACTOR}/entries/1`,
      type: 'WHISKEY',
      name: 'Smoke & <em>Mirrors</em>',
      subtype: 'Scotch',
      makerName: 'Caol Ila',
      rating: 4,
      notes: '<img src=x onerror="document.title=1">Peat.',
      status: 'TRIED',
      publishedAt: new Date('2026-02-01T10:00:00Z'),
      updatedAt: new Date('2026-02-01T10:00:00Z'),
      photoUrl: 'https://other-vault.example/media/shared/abc.jpg',
    },
    await jpeg(400, 300),
  );
  expect(outcome).toBe('stored');
}

describe('/activity with an entry from a remote vault', () => {
  it('shows it read-only with the actor’s handle, as text, and adds it to the vault', async () => {
    await receiveRemoteEntry();
    const page = await people.openAs('beech', '/activity');
    const item = page
      .getByRole('list', { name: 'Recent activity' })
      .getByRole('article', { name: 'Smoke & <em>Mirrors</em>', exact: true });
    await item.waitFor();
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('Bob <em>Brewer</em>');
    expect(text).toContain('@bob@other-vault.example');
    expect(text).toContain('<img src=x onerror="document.title=1">Peat.');
    expect(text).toContain('View only');
    expect(text).toContain('Caol Ila');
    // Remote text is never markup: no element came from it, and no link leads off the vault.
    expect(await item.locator('em, article img[src="x"]').count()).toBe(0);
    expect(await item.getByRole('link').count()).toBe(0);
    expect(await page.title()).not.toBe('1');
    expect(await item.getByRole('img', { name: 'Rated 4 out of 5' }).isVisible()).toBe(true);
    expect(await loadedWidth(item.locator('img[src^="/media/"]'))).toBeGreaterThan(0);
    expect(await item.getByRole('button', { name: /^Edit / }).count()).toBe(0);

    await item.getByRole('button', { name: 'Add to vault: Smoke & <em>Mirrors</em>' }).click();
    await page
      .locator('.note--success', {
        hasText: 'Added “Smoke & <em>Mirrors</em>” to your to-try list',
      })
      .waitFor();
    await item.getByText('In your vault').waitFor();

    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    const copy = page
      .getByRole('region', { name: 'Whiskey', exact: true })
      .getByRole('region', { name: 'To try' })
      .getByRole('article')
      .first();
    await copy.getByRole('heading', { name: 'Smoke & <em>Mirrors</em>' }).waitFor();
    expect(
      await copy.getByRole('button', { name: 'Edit Smoke & <em>Mirrors</em>' }).isVisible(),
    ).toBe(true);
    expect(await loadedWidth(copy.locator('img'))).toBeGreaterThan(0);
  });
});
