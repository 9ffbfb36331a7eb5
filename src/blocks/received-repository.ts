import type { Database } from '../db/database.ts';

/**
 * Whether the remote actor `actorId` blocked the local user `userId` (a Block received and not
 * undone), as SQL: one probe of received_blocks_pair_unique. The arguments are SQL expressions
 * (columns or parameters), never values from a request.
 */
export function receivedBlockSql(userId: string, actorId: string): string {
  return `EXISTS (SELECT 1 FROM received_blocks rcv_b WHERE rcv_b.blocker_actor_id = ${actorId}
      AND rcv_b.blocked_user_id = ${userId})`;
}

/**
 * Data access for blocks received from remote accounts: the only place that writes
 * `received_blocks`. One row per blocker and blocked user; the Block's id is kept so that its
 * Undo can name it. Whether one actor blocked one user is asked through the block rule
 * (`isBlockedEitherWay`, `isBlockedByRemote` of repository.ts, with `receivedBlockSql`).
 */
export function createReceivedBlockRepository(db: Database) {
  const insert = db
    .prepare(
      `INSERT INTO received_blocks (blocker_actor_id, blocked_user_id, activity_uri, created_at)
       VALUES (?, ?, ?, ?)
       ON CONFLICT (blocker_actor_id, blocked_user_id) DO NOTHING RETURNING id`,
    )
    .pluck<number>();
  const removeByActivity = db
    .prepare(
      'DELETE FROM received_blocks WHERE blocker_actor_id = ? AND activity_uri = ? RETURNING id',
    )
    .pluck<number>();
  const removeByPair = db
    .prepare(
      'DELETE FROM received_blocks WHERE blocker_actor_id = ? AND blocked_user_id = ? RETURNING id',
    )
    .pluck<number>();
  // How many of the actors (a JSON array of their URIs) blocked the user: the array is read by
  // each engine's own JSON function.
  const blockersAmongOf = (uris: string) => `SELECT count(DISTINCT a.uri) FROM received_blocks rb
       JOIN actors a ON a.id = rb.blocker_actor_id
       WHERE rb.blocked_user_id = @userId AND a.uri IN (${uris})`;
  const blockersAmong = db
    .prepare({
      sqlite: blockersAmongOf('SELECT value FROM json_each(@uris)'),
      postgres: blockersAmongOf('SELECT json_array_elements_text(CAST(@uris AS json))'),
    })
    .pluck<number>();
  return {
    /** Records the block; false when that actor's block of the user was already recorded. */
    async insert(
      blockerActorId: number,
      blockedUserId: number,
      activityUri: string | null,
      at: number,
    ): Promise<boolean> {
      return (await insert.get(blockerActorId, blockedUserId, activityUri, at)) !== undefined;
    },

    /**
     * Removes the actor's block named by its Block's id, or else its block of `userId` (an Undo
     * that names the Block by actor and object only); whether there was one.
     */
    async remove(
      blockerActorId: number,
      activityUri: string,
      userId: number | null,
    ): Promise<boolean> {
      if ((await removeByActivity.get(blockerActorId, activityUri)) !== undefined) return true;
      return userId !== null && (await removeByPair.get(blockerActorId, userId)) !== undefined;
    },

    /** Whether every one of these actor URIs (at least one) blocked the local user. */
    async allBlocked(userId: number, actorUris: readonly string[]): Promise<boolean> {
      const uris = [...new Set(actorUris)];
      if (uris.length === 0) return false;
      return (await blockersAmong.get({ userId, uris: JSON.stringify(uris) })) === uris.length;
    },
  };
}

export type ReceivedBlockRepository = ReturnType<typeof createReceivedBlockRepository>;
