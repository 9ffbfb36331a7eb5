import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/server.ts';
import { jpeg } from '../helpers/images.ts';
import { seedEntry } from './vault-seed.ts';

/** The people of the screen tests: an admin (the vault's own) and two users who follow. */
export const IVY = { username: 'ivy', password: 'ivy-password-12', fullName: 'Ivy Cooper' };
export const OTTO = { username: 'otto', password: 'otto-password-12', fullName: 'Otto Still' };

/** Every screen of the signed-in client, with the heading each shows once loaded. */
export const SIGNED_IN_SCREENS = [
  { name: 'dashboard', path: '/', heading: 'Dashboard' },
  { name: 'activity feed', path: '/activity', heading: 'Activity' },
  { name: 'cellar', path: '/cellar', heading: 'Cellar' },
  { name: 'whiskey archive', path: '/whiskey', heading: 'Whiskey Logs' },
  { name: 'wine archive', path: '/wine', heading: 'Wine Logs' },
  { name: 'beer archive', path: '/beer', heading: 'Beer Logs' },
  { name: 'following page', path: '/following', heading: 'Following' },
  { name: 'stats page', path: '/stats', heading: 'Stats' },
  { name: 'year in review', path: '/stats/2025', heading: '2025 in review' },
  { name: 'profile page', path: '/profile', heading: 'Profile' },
  { name: 'admin console', path: '/admin', heading: 'Admin Console' },
  { name: 'public profile', path: `/users/${OTTO.username}`, heading: OTTO.username },
  // The first entry seeded (seedScreens), where a cheer's or comment's alert leads.
  { name: 'dashboard with an entry from the alerts', path: '/?entry=1', heading: 'Dashboard' },
] as const;

/** Entries of every kind (some with photos, some in the cellar, some to try) and a follow. */
export async function seedScreens(server: TestServer): Promise<void> {
  await server.createUser(IVY);
  await server.createUser(OTTO);
  // The follows first, so that the entries logged next reach the followers' activity feeds
  // (the feed's cards and their 'Add to vault' buttons are checked like every other screen).
  const ivy = (await server.ctx.users.findByUsername(IVY.username))!;
  const otto = (await server.ctx.users.findByUsername(OTTO.username))!;
  const admin = (await server.ctx.users.findByUsername(server.adminUsername))!;
  for (const [follower, followed] of [
    [admin, otto],
    [admin, ivy],
    [ivy, admin],
  ] as const) {
    await server.ctx.follows.follow({ id: follower.id }, followed.id);
  }
  const photo = await jpeg(300, 400);
  for (const who of [IVY.username, OTTO.username, server.adminUsername]) {
    await seedEntry(
      server,
      who,
      {
        type: 'WHISKEY',
        name: 'Lagavulin 16 Year Old Islay Single Malt',
        subtype: 'Scotch',
        makerName: 'Lagavulin Distillery',
        rating: 5,
        notes: 'Peat smoke, iodine, a long and very dry finish.',
        inCellar: true,
      },
      photo,
    );
    await seedEntry(server, who, {
      type: 'WINE',
      name: 'Château Musar Rouge',
      subtype: 'Cabernet Sauvignon',
      makerName: 'Château Musar',
      status: 'TO_TRY',
      rating: 0,
      inCellar: true,
    });
    await seedEntry(server, who, {
      type: 'BEER',
      name: 'Pliny the Elder',
      subtype: 'IPA',
      makerName: 'Russian River Brewing Company',
      rating: 4,
    });
  }
  // The followers' feeds are filled by the outbox: done before any screen is opened.
  await server.ctx.outbox.idle();
}

/** Opens a screen of the signed-in client and waits until its heading is there. */
export async function openScreen(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // Lists and images settle (the activity feed and lists load after the heading).
  await page.waitForLoadState('networkidle');
}
