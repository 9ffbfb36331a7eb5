// Seeding the social benchmark's database straight into SQLite: 2,000 actors with 1,000,000
// logged entries between them, a reader who follows 500 of them (so 250,000 feed items) and has
// 10,000 notifications, and two authors: one with no followers, one with 1,000.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../src/auth/passwords.ts';
import { openDatabase } from '../src/db/client.ts';

export const SOCIAL = {
  actors: 2_000,
  activities: 1_000_000,
  followed: 500,
  notifications: 10_000,
  popularFollowers: 1_000,
  password: 'bench-password',
};

/** A temporary data directory; users `reader`, `quiet`, `popular` and `social_0…1999`. */
export async function seedSocialDataDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vault-bench-social-'));
  const { database, sqlite, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  const passwordHash = await hashPassword(SOCIAL.password);
  const t0 = Date.now() - SOCIAL.activities * 1000;
  const addUser = database
    .prepare(
      `insert into users (username, full_name, email, role, password_hash) values (?, ?, ?, 'USER', ?)
       returning id`,
    )
    .pluck<number>();
  const addActor = database
    .prepare(
      `insert into actors (kind, user_id, created_at, updated_at) values ('local', ?, ?, ?)
       returning id`,
    )
    .pluck<number>();
  const addEntry = database
    .prepare(
      `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, created_at, updated_at)
     values (?, 'WHISKEY', ?, 'Bourbon', 'Bench House', 4, 'oak vanilla', 'TRIED', 0, ?, ?)
     returning id`,
    )
    .pluck<number>();
  const addActivity = database
    .prepare(
      `insert into activities (actor_id, type, beverage_id, created_at) values (?, 'Create', ?, ?)
       returning id`,
    )
    .pluck<number>();
  const addFeedItem = database.prepare(
    `insert into feed_items (recipient_id, activity_id, actor_id, beverage_id, created_at) values (?, ?, ?, ?, ?)`,
  );
  const addFollow = database.prepare(
    `insert into follows (follower_id, followed_id, state, created_at) values (?, ?, 'ACCEPTED', ?)`,
  );
  const addNotification = database.prepare(
    `insert into notifications (recipient_id, type, status, sender_id, created_at) values (?, 'FOLLOW_INVITE', ?, ?, ?)`,
  );
  const user = async (username: string) => {
    const userId = (await addUser.get(
      username,
      `Social ${username}`,
      `${username}@example.com`,
      passwordHash,
    ))!;
    const actorId = (await addActor.get(userId, t0, t0))!;
    return { userId, actorId };
  };
  await database.transaction(async () => {
    const reader = await user('reader');
    const quiet = await user('quiet');
    const popular = await user('popular');
    const people: { userId: number; actorId: number }[] = [];
    for (let i = 0; i < SOCIAL.actors; i++) people.push(await user(`social_${i}`));
    // The reader follows every fourth actor (500), from before the first entry.
    const followedEvery = SOCIAL.actors / SOCIAL.followed;
    for (let i = 0; i < SOCIAL.actors; i += followedEvery) {
      await addFollow.run(reader.actorId, people[i]!.actorId, t0 - 1);
    }
    for (let i = 0; i < SOCIAL.popularFollowers; i++) {
      await addFollow.run(people[i]!.actorId, popular.actorId, t0 - 1);
    }
    for (let i = 0; i < SOCIAL.activities; i++) {
      const who = i % SOCIAL.actors;
      const author = people[who]!;
      const at = t0 + i * 1000;
      const entryId = (await addEntry.get(author.userId, `Pour ${i}`, at, at))!;
      const activityId = (await addActivity.get(author.actorId, entryId, at))!;
      if (who % followedEvery === 0) {
        await addFeedItem.run(reader.userId, activityId, author.actorId, entryId, at);
      }
    }
    for (let i = 0; i < SOCIAL.notifications; i++) {
      const sender = people[i % SOCIAL.actors]!;
      await addNotification.run(
        reader.userId,
        i % 3 ? 'ACCEPTED' : 'PENDING',
        sender.actorId,
        t0 + i,
      );
    }
    void quiet;
  });
  sqlite.pragma('optimize');
  close();
  return dataDir;
}
