import type { Database } from '../db/database.ts';
import { blockedBetweenUsersSql, blockedEitherWaySql } from '../visibility/policy.ts';
import { receivedBlockSql } from './received-repository.ts';

/** A block as the Blocked list shows it: the blocked actor's names read with the row. */
export interface BlockRecord {
  id: number;
  blockedActorId: number;
  /** The blocked local user's username, or null for a remote account. */
  username: string | null;
  actorUri: string | null;
  handle: string | null;
  /** The local user's full name, or the remote account's display name (its handle if none). */
  displayName: string;
  createdAt: Date;
}

function recordOf(row: Record<string, unknown>): BlockRecord {
  const handle = row.handle as string | null;
  const name = (row.full_name as string | null) ?? (row.display_name as string);
  return {
    id: row.id as number,
    blockedActorId: row.blocked_actor_id as number,
    username: row.username as string | null,
    actorUri: row.uri as string | null,
    handle,
    displayName: name || handle || (row.uri as string | null) || '',
    createdAt: new Date(row.created_at as number),
  };
}

/**
 * Data access for blocks: the only place that writes `blocks`. Every lookup is one indexed
 * query (blocks_pair_unique one way, blocks_blocked_idx the other, received_blocks_pair_unique
 * for a block received from a remote account).
 */
export function createBlockRepository(db: Database) {
  const insert = db
    .prepare(
      `INSERT INTO blocks (blocker_id, blocked_actor_id, created_at) VALUES (?, ?, ?)
       ON CONFLICT (blocker_id, blocked_actor_id) DO NOTHING RETURNING id`,
    )
    .pluck<number>();
  const columns = `b.id, b.blocked_actor_id, b.created_at, a.uri, a.handle, a.display_name,
            u.username, u.full_name
     FROM blocks b JOIN actors a ON a.id = b.blocked_actor_id
     LEFT JOIN users u ON u.id = a.user_id`;
  const byPair = db.prepare<Record<string, unknown>>(
    `SELECT ${columns} WHERE b.blocker_id = ? AND b.blocked_actor_id = ?`,
  );
  const list = db.prepare<Record<string, unknown>>(
    `SELECT ${columns} WHERE b.blocker_id = ? ORDER BY b.created_at DESC, b.id DESC`,
  );
  const remove = db
    .prepare('DELETE FROM blocks WHERE id = ? AND blocker_id = ? RETURNING blocked_actor_id')
    .pluck<number>();
  // The rule as the lists ask it in their statements (src/visibility/policy.ts), and a remote
  // account's block of the user, received from its server (received-repository.ts). Answered
  // as 1 or 0 on both engines (a condition selected is a boolean on PostgreSQL).
  const oneIf = (condition: string) => `SELECT CASE WHEN ${condition} THEN 1 ELSE 0 END`;
  const myActor = 'coalesce((SELECT id FROM actors WHERE user_id = @userId), 0)';
  const eitherWay = db
    .prepare(
      oneIf(
        `${blockedEitherWaySql('@userId', myActor, '@actorId')}
         OR ${receivedBlockSql('@userId', '@actorId')}`,
      ),
    )
    .pluck<number>();
  const byActor = db.prepare(oneIf(receivedBlockSql('@userId', '@actorId'))).pluck<number>();
  const betweenUsers = db.prepare(oneIf(blockedBetweenUsersSql('@one', '@other'))).pluck<number>();
  const usersEitherWay = db
    .prepare(
      `SELECT a.user_id FROM blocks b JOIN actors a ON a.id = b.blocked_actor_id
       WHERE b.blocker_id = @userId AND a.user_id IS NOT NULL
       UNION
       SELECT b.blocker_id FROM actors me JOIN blocks b ON b.blocked_actor_id = me.id
       WHERE me.user_id = @userId`,
    )
    .pluck<number>();
  return {
    /** Records the block; undefined when the user had already blocked the actor. */
    insert(blockerId: number, blockedActorId: number, at: number): Promise<number | undefined> {
      return insert.get(blockerId, blockedActorId, at);
    },

    async findByPair(blockerId: number, blockedActorId: number): Promise<BlockRecord | undefined> {
      const row = await byPair.get(blockerId, blockedActorId);
      return row ? recordOf(row) : undefined;
    },

    /** The user's blocks, most recent first. */
    async list(blockerId: number): Promise<BlockRecord[]> {
      return (await list.all(blockerId)).map(recordOf);
    },

    /** Removes the block; the blocked actor's id, or undefined when there was no such block. */
    remove(blockerId: number, id: number): Promise<number | undefined> {
      return remove.get(id, blockerId);
    },

    /**
     * Whether the local user blocked the actor, or the actor blocked them: a local user's block,
     * or a remote account's Block received from its server.
     */
    async isBlockedEitherWay(userId: number, actorId: number): Promise<boolean> {
      return (await eitherWay.get({ userId, actorId })) === 1;
    },

    /** Whether the remote actor blocked the local user (a Block received, not undone). */
    async isBlockedByRemote(userId: number, actorId: number): Promise<boolean> {
      return (await byActor.get({ userId, actorId })) === 1;
    },

    /** Whether one of two local users blocked the other. */
    async isBlockedBetweenUsers(one: number, other: number): Promise<boolean> {
      return (await betweenUsers.get({ one, other })) === 1;
    },

    /** The local users the user blocked or who blocked the user. */
    async usersBlockedEitherWay(userId: number): Promise<Set<number>> {
      return new Set(await usersEitherWay.all({ userId }));
    },
  };
}

export type BlockRepository = ReturnType<typeof createBlockRepository>;
