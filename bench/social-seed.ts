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
  const { sqlite, close } = openDatabase(path.join(dataDir, 'vault.sqlite'));
  const passwordHash = await hashPassword(SOCIAL.password);
  const t0 = Date.now() - SOCIAL.activities * 1000;
  const addUser = sqlite.prepare(
    `insert into users (username, full_name, email, role, password_hash) values (?, ?, ?, 'USER', ?)`,
  );
  const addActor = sqlite.prepare(
    `insert into actors (kind, user_id, created_at, updated_at) values ('local', ?, ?, ?)`,
  );
  const addEntry = sqlite.prepare(
    `insert into beverages (user_id, type, name, subtype, maker_name, rating, notes, status, in_cellar, created_at, updated_at)
     values (?, 'WHISKEY', ?, 'Bourbon', 'Bench House', 4, 'oak vanilla', 'TRIED', 0, ?, ?)`,
  );
  const addActivity = sqlite.prepare(
    `insert into activities (actor_id, type, beverage_id, created_at) values (?, 'Create', ?, ?)`,
  );
  const addFeedItem = sqlite.prepare(
    `insert into feed_items (recipient_id, activity_id, actor_id, beverage_id, created_at) values (?, ?, ?, ?, ?)`,
  );
  const addFollow = sqlite.prepare(
    `insert into follows (follower_id, followed_id, state, created_at) values (?, ?, 'ACCEPTED', ?)`,
  );
  const addNotification = sqlite.prepare(
    `insert into notifications (recipient_id, type, status, sender_id, created_at) values (?, 'FOLLOW_INVITE', ?, ?, ?)`,
  );
  const user = (username: string) => {
    const userId = Number(
      addUser.run(username, `Social ${username}`, `${username}@example.com`, passwordHash)
        .lastInsertRowid,
    );
    const actorId = Number(addActor.run(userId, t0, t0).lastInsertRowid);
    return { userId, actorId };
  };
  sqlite.transaction(() => {
    const reader = user('reader');
    const quiet = user('quiet');
    const popular = user('popular');
    const people = Array.from({ length: SOCIAL.actors }, (_, i) => user(`social_${i}`));
    // The reader follows every fourth actor (500), from before the first entry.
    const followedEvery = SOCIAL.actors / SOCIAL.followed;
    for (let i = 0; i < SOCIAL.actors; i += followedEvery) {
      addFollow.run(reader.actorId, people[i]!.actorId, t0 - 1);
    }
    for (let i = 0; i < SOCIAL.popularFollowers; i++) {
      addFollow.run(people[i]!.actorId, popular.actorId, t0 - 1);
    }
    for (let i = 0; i < SOCIAL.activities; i++) {
      const who = i % SOCIAL.actors;
      const author = people[who]!;
      const at = t0 + i * 1000;
      const entryId = Number(addEntry.run(author.userId, `Pour ${i}`, at, at).lastInsertRowid);
      const activityId = Number(addActivity.run(author.actorId, entryId, at).lastInsertRowid);
      if (who % followedEvery === 0) {
        addFeedItem.run(reader.userId, activityId, author.actorId, entryId, at);
      }
    }
    for (let i = 0; i < SOCIAL.notifications; i++) {
      const sender = people[i % SOCIAL.actors]!;
      addNotification.run(reader.userId, i % 3 ? 'ACCEPTED' : 'PENDING', sender.actorId, t0 + i);
    }
    void quiet;
  })();
  sqlite.pragma('optimize');
  close();
  return dataDir;
}
