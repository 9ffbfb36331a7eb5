import type { FakeRemote } from '../helpers/fake-remote.ts';
import type { Database } from '../../src/db/database.ts';

/**
 * Makes a fake remote account an accepted follower of a vault user, as the vault stores one
 * after its Follow: the remote actor (with the fake's shared inbox) and an ACCEPTED follow row.
 */
export async function insertRemoteFollower(
  db: Database,
  followedActorId: number,
  remote: FakeRemote,
  name: string,
): Promise<number> {
  const account = remote.account(name);
  const now = Date.now();
  const existing = await db
    .prepare('SELECT id FROM actors WHERE uri = ?')
    .pluck<number>()
    .get(account.id);
  const actorId =
    existing ??
    (await db
      .prepare(
        `INSERT INTO actors (kind, uri, inbox_url, shared_inbox_url, display_name, handle, summary,
           created_at, updated_at, fetched_at)
         VALUES ('remote', ?, ?, ?, ?, ?, '', ?, ?, ?) RETURNING id`,
      )
      .pluck<number>()
      .get(
        account.id,
        account.inbox,
        `${remote.origin}/inbox`,
        name,
        `@${remote.handle(name)}`,
        now,
        now,
        now,
      ))!;
  await db
    .prepare(
      `INSERT INTO follows (follower_id, followed_id, state, activity_uri, created_at)
       VALUES (?, ?, 'ACCEPTED', ?, ?)`,
    )
    .run(actorId, followedActorId, `${account.id}#follows/${followedActorId}`, now);
  return actorId;
}
