// The social half under load (issue 9's targets), one request at a time on the real server:
// a page of the activity feed (first and 50th), the notifications list, and what 1,000 local
// followers add to the cost of logging an entry (delivery is off the request path).
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { multipart, signIn, time, type Client } from './http.ts';
import { startVault } from './processes.ts';
import { SOCIAL, seedSocialDataDir } from './social-seed.ts';
import type { Verdict } from './verdict.ts';

async function getJson<T>(client: Client, pathAndQuery: string): Promise<T> {
  const res = await client.send('GET', pathAndQuery);
  if (res.status !== 200) throw new Error(`GET ${pathAndQuery}: ${res.status} ${res.body}`);
  return JSON.parse(res.body.toString()) as T;
}

type FeedPage = { activities: { beverage: { name: string } }[]; nextCursor: string | null };

export async function benchSocial(): Promise<Verdict[]> {
  const started = Date.now();
  const dataDir = await seedSocialDataDir();
  console.log(
    `\nThe social half: seeded ${SOCIAL.activities.toLocaleString('en')} entries and activities from ${SOCIAL.actors} actors in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  const vault = await startVault(dataDir);
  // Let the start-up work (the uploads sweep reads every photo path) finish before measuring.
  await new Promise((r) => setTimeout(r, 3000));
  try {
    const reader = await signIn(vault.origin, 'reader', SOCIAL.password);
    const first = await getJson<FeedPage>(reader, '/api/activity');
    if (first.activities.length !== 20) throw new Error('the feed page is not full');
    const feedFirst = await time('GET /api/activity (first page of 20)', 500, () =>
      getJson(reader, '/api/activity'),
    );
    let cursor = first.nextCursor;
    for (let i = 0; i < 48 && cursor; i++) {
      cursor = (
        await getJson<FeedPage>(reader, `/api/activity?cursor=${encodeURIComponent(cursor)}`)
      ).nextCursor;
    }
    if (!cursor) throw new Error('the feed has fewer than 50 pages');
    const deep = `/api/activity?cursor=${encodeURIComponent(cursor)}`;
    const feedDeep = await time('GET /api/activity (50th page)', 500, () => getJson(reader, deep));
    const notifications = await time(
      `GET /api/notifications (${SOCIAL.notifications.toLocaleString('en')} stored)`,
      500,
      () => getJson(reader, '/api/notifications'),
    );

    // Logging an entry: an author with no followers against one with 1,000, interleaved.
    const quiet = await signIn(vault.origin, 'quiet', SOCIAL.password);
    const popular = await signIn(vault.origin, 'popular', SOCIAL.password);
    const entry = multipart({ name: 'Bench pour', type: 'BEER', subtype: 'IPA', rating: '4' });
    const post = (client: Client) => async () => {
      const res = await client.send('POST', '/api/beverages', entry);
      if (res.status !== 201) throw new Error(`POST: ${res.status}`);
    };
    // Entries 100 ms apart (outside the timing), as people log them: what is timed is the
    // author's own request, while the previous entry's delivery (timed below) has finished.
    const none = await time('POST /api/beverages, author with no followers', 200, post(quiet), 100);
    const many = await time(
      `POST /api/beverages, author with ${SOCIAL.popularFollowers.toLocaleString('en')} followers`,
      200,
      post(popular),
      100,
    );
    // The delivery itself: from the author's answer until the last of the 1,000 followers (the
    // one reached last) has the entry in their feed, polled every millisecond or so.
    const last = await signIn(
      vault.origin,
      `social_${SOCIAL.popularFollowers - 1}`,
      SOCIAL.password,
    );
    const named = multipart({ name: 'Delivery probe', type: 'BEER', subtype: 'IPA' });
    const deliveries: number[] = [];
    let delivered = true;
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const res = await popular.send('POST', '/api/beverages', named);
      if (res.status !== 201) throw new Error(`POST: ${res.status}`);
      const id = (JSON.parse(res.body.toString()) as { beverage: { id: number } }).beverage.id;
      const t = performance.now();
      for (;;) {
        const page = await getJson<{ activities: { beverage: { id: number } }[] }>(
          last,
          '/api/activity?limit=1',
        );
        if (page.activities[0]?.beverage.id === id) break;
        if (performance.now() - t > 5000) {
          delivered = false;
          break;
        }
      }
      deliveries.push(performance.now() - t);
    }
    deliveries.sort((a, b) => a - b);
    console.log(
      `delivery of an entry to 1,000 followers' feeds (answer to the last follower's feed): median ${deliveries[10]!.toFixed(1)} ms, worst ${deliveries[19]!.toFixed(1)} ms${delivered ? '' : ' (NOT DELIVERED within 5 s)'}`,
    );

    const extra = many.p50 - none.p50;
    return [
      {
        target: 'activity feed, first page: p99 < 15 ms',
        figure: `${feedFirst.p99.toFixed(2)} ms`,
        met: feedFirst.p99 < 15,
      },
      {
        target: 'activity feed, 50th page: p99 < 15 ms',
        figure: `${feedDeep.p99.toFixed(2)} ms`,
        met: feedDeep.p99 < 15,
      },
      {
        target: 'notifications (10,000 stored): p99 < 10 ms',
        figure: `${notifications.p99.toFixed(2)} ms`,
        met: notifications.p99 < 10,
      },
      {
        target: 'logging with 1,000 followers: < 5 ms more (p50)',
        figure: `${extra.toFixed(2)} ms more (p99 ${(many.p99 - none.p99).toFixed(2)})`,
        met: extra < 5 && delivered,
      },
    ];
  } finally {
    await vault.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
