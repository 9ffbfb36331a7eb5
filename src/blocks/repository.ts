import type Database from 'better-sqlite3';
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
export function createBlockRepository(sqlite: Database.Database) {
  const insert = sqlite
    .prepare(
      `INSERT INTO blocks (blocker_id, blocked_actor_id, created_at) VALUES (?, ?, ?)
       ON CONFLICT (blocker_id, blocked_actor_id) DO NOTHING RETURNING id`,
    )
    .pluck();
  const columns = `b.id, b.blocked_actor_id, b.created_at, a.uri, a.handle, a.display_name,
            u.username, u.full_name
     FROM blocks b JOIN actors a ON a.id = b.blocked_actor_id
     LEFT JOIN users u ON u.id = a.user_id`;
  const byPair = sqlite.prepare(
    `SELECT ${columns} WHERE b.blocker_id = ? AND b.blocked_actor_id = ?`,
  );
  const list = sqlite.prepare(
    `SELECT ${columns} WHERE b.blocker_id = ? ORDER BY b.created_at DESC, b.id DESC`,
  );
  const remove = sqlite
    .prepare('DELETE FROM blocks WHERE id = ? AND blocker_id = ? RETURNING blocked_actor_id')
    .pluck();
  // The rule as the lists ask it in their statements (src/visibility/policy.ts), and a remote
  // account's block of the user, received from its server (received-repository.ts).
  const myActor = 'coalesce((SELECT id FROM actors WHERE user_id = @userId), 0)';
  const eitherWay = sqlite
    .prepare(
      `SELECT ${blockedEitherWaySql('@userId', myActor, '@actorId')}
         OR ${receivedBlockSql('@userId', '@actorId')}`,
    )
    .pluck();
  const byActor = sqlite.prepare(`SELECT ${receivedBlockSql('@userId', '@actorId')}`).pluck();
  const betweenUsers = sqlite.prepare(`SELECT ${blockedBetweenUsersSql('@one', '@other')}`).pluck();
  const usersEitherWay = sqlite
    .prepare(
      `SELECT a.user_id FROM blocks b JOIN actors a ON a.id = b.blocked_actor_id
       WHERE b.blocker_id = @userId AND a.user_id IS NOT NULL
       UNION
       SELECT b.blocker_id FROM actors me JOIN blocks b ON b.blocked_actor_id = me.id
       WHERE me.user_id = @userId`,
    )
    .pluck();
  return {
    /** Records the block; undefined when the user had already blocked the actor. */
    insert(blockerId: number, blockedActorId: number, at: number): number | undefined {
      return insert.get(blockerId, blockedActorId, at) as number | undefined;
    },

    findByPair(blockerId: number, blockedActorId: number): BlockRecord | undefined {
      const row = byPair.get(blockerId, blockedActorId) as Record<string, unknown> | undefined;
      return row ? recordOf(row) : undefined;
    },

    /** The user's blocks, most recent first. */
    list(blockerId: number): BlockRecord[] {
      return (list.all(blockerId) as Record<string, unknown>[]).map(recordOf);
    },

    /** Removes the block; the blocked actor's id, or undefined when there was no such block. */
    remove(blockerId: number, id: number): number | undefined {
      return remove.get(id, blockerId) as number | undefined;
    },

    /**
     * Whether the local user blocked the actor, or the actor blocked them: a local user's block,
     * or a remote account's Block received from its server.
     */
    isBlockedEitherWay(userId: number, actorId: number): boolean {
      return eitherWay.get({ userId, actorId }) === 1;
    },

    /** Whether the remote actor blocked the local user (a Block received, not undone). */
    isBlockedByRemote(userId: number, actorId: number): boolean {
      return byActor.get({ userId, actorId }) === 1;
    },

    /** Whether one of two local users blocked the other. */
    isBlockedBetweenUsers(one: number, other: number): boolean {
      return betweenUsers.get({ one, other }) === 1;
    },

    /** The local users the user blocked or who blocked the user. */
    usersBlockedEitherWay(userId: number): Set<number> {
      return new Set(usersEitherWay.all({ userId }) as number[]);
    },
  };
}

export type BlockRepository = ReturnType<typeof createBlockRepository>;
