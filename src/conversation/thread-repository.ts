import type { Database } from '../db/database.ts';
import type { CommentAudience } from '../../contract/enums.ts';
import { blockedEitherWaySql, commentReadableSql } from '../visibility/policy.ts';
import { COMMENT, commentOf, commentSelect, type CommentRecord } from './comment-rows.ts';
import { threadOrder } from './thread-order.ts';

/** A person a comment is addressed to, or mentions. */
export interface Addressee {
  actorId: number;
  mentioned: boolean;
}

/** A mention as the thread shows it: the account's local username or fediverse handle. */
export interface MentionedActor {
  actorId: number;
  username: string | null;
  handle: string | null;
}

/** A comment's cheers as one user sees them. */
export interface CommentCheers {
  cheerCount: number;
  cheeredByMe: boolean;
}

export const NO_COMMENT_CHEERS: CommentCheers = { cheerCount: 0, cheeredByMe: false };

const COLUMN = { local: 'beverage_id', remote: 'remote_entry_id' } as const;
type Kind = keyof typeof COLUMN;

/** A comment (`c`) the user (@userId, whose actor is @actorId) reads ("Who reads a reply"). */
const COMMENT_READABLE = commentReadableSql('@userId', '@actorId', 'c');

/** A cheer of a comment the user (@userId, @actorId) is shown: not across a block. */
const CHEER_SHOWN = `NOT ${blockedEitherWaySql('@userId', '@actorId', 'cc.actor_id')}`;

/**
 * The thread's own statements, part of the conversation repository (src/conversation/
 * repository.ts spreads them into it): the people a comment is addressed to and mentions
 * (`comment_addressees`), cheers of comments (`comment_cheers`), a comment's place in its thread
 * and deleted comments kept for their answers, and the thread as one user reads it. Reads of a
 * whole thread are one statement per entry, a range of comments_*_idx.
 */
export function createThreadStatements(db: Database) {
  const perKind = <T>(make: (col: string) => T) =>
    ({ local: make(COLUMN.local), remote: make(COLUMN.remote) }) as Record<Kind, T>;

  // Every comment of the entry with whether the user reads it: the thread hangs a readable
  // answer under its nearest readable ancestor (thread-order.ts).
  const thread = perKind((col) =>
    db.prepare(
      `${commentSelect(` CASE WHEN ${COMMENT_READABLE} THEN 1 ELSE 0 END AS readable,`)}
       WHERE c.${col} = @entryId ORDER BY c.created_at, c.id`,
    ),
  );
  const readableComment = perKind((col) =>
    db.prepare(`${COMMENT} WHERE c.id = @id AND c.${col} = @entryId AND ${COMMENT_READABLE}`),
  );
  const insertAddressee = db.prepare(
    `INSERT INTO comment_addressees (comment_id, actor_id, mentioned) VALUES (?, ?, ?)
     ON CONFLICT (comment_id, actor_id) DO UPDATE SET mentioned = CASE
       WHEN excluded.mentioned > comment_addressees.mentioned THEN excluded.mentioned
       ELSE comment_addressees.mentioned END`,
  );
  const addressees = db.prepare(
    'SELECT actor_id, mentioned FROM comment_addressees WHERE comment_id = ? ORDER BY actor_id',
  );
  const mentioned = perKind((col) =>
    db.prepare(
      `SELECT ca.comment_id, ca.actor_id, u.username,
         CASE WHEN u.id IS NULL THEN a.handle END AS handle
       FROM comments c JOIN comment_addressees ca ON ca.comment_id = c.id AND ca.mentioned = 1
       JOIN actors a ON a.id = ca.actor_id LEFT JOIN users u ON u.id = a.user_id
       WHERE c.${col} = ? ORDER BY ca.comment_id, ca.actor_id`,
    ),
  );
  const cheersOfEntry = perKind((col) =>
    db.prepare(
      `SELECT cc.comment_id, sum(CASE WHEN ${CHEER_SHOWN} THEN 1 ELSE 0 END) AS cheer_count,
         max(CASE WHEN cc.actor_id = @actorId THEN 1 ELSE 0 END) AS cheered_by_me
       FROM comments c JOIN comment_cheers cc ON cc.comment_id = c.id
       WHERE c.${col} = @entryId GROUP BY cc.comment_id`,
    ),
  );
  const cheersOfComment = db.prepare(
    `SELECT coalesce(sum(CASE WHEN ${CHEER_SHOWN} THEN 1 ELSE 0 END), 0) AS cheer_count,
       coalesce(max(CASE WHEN cc.actor_id = @actorId THEN 1 ELSE 0 END), 0) AS cheered_by_me
     FROM comment_cheers cc WHERE cc.comment_id = @commentId`,
  );
  const insertCheer = db
    .prepare(
      `INSERT INTO comment_cheers (comment_id, actor_id, created_at) VALUES (?, ?, ?)
       ON CONFLICT DO NOTHING RETURNING id`,
    )
    .pluck();
  const deleteCheer = db
    .prepare('DELETE FROM comment_cheers WHERE comment_id = ? AND actor_id = ? RETURNING id')
    .pluck();
  const cheerRow = db.prepare('SELECT id, comment_id, actor_id FROM comment_cheers WHERE id = ?');
  const audienceOf = db.prepare('SELECT audience FROM comments WHERE id = ?').pluck();
  const parentOf = db.prepare('SELECT parent_id FROM comments WHERE id = ?');
  const hasAnswers = db.prepare('SELECT 1 FROM comments WHERE parent_id = ? LIMIT 1').pluck();
  const tombstone = db.prepare(
    "UPDATE comments SET content = '', deleted_at = ?, updated_at = ? WHERE id = ?",
  );
  const dropCheers = db.prepare('DELETE FROM comment_cheers WHERE comment_id = ?');
  const isTombstone = db
    .prepare('SELECT 1 FROM comments WHERE id = ? AND deleted_at IS NOT NULL')
    .pluck();
  const remove = db.prepare('DELETE FROM comments WHERE id = ?');
  const actorOfUser = db.prepare('SELECT id FROM actors WHERE user_id = ?').pluck();
  const readable = db
    .prepare(
      `SELECT 1 FROM comments c WHERE c.id = @commentId AND c.deleted_at IS NULL
         AND ${COMMENT_READABLE}`,
    )
    .pluck();
  const userByName = db.prepare('SELECT id FROM users WHERE username = ?').pluck();
  const remoteByHandle = db
    .prepare("SELECT id FROM actors WHERE kind = 'remote' AND lower(handle) = lower(?) LIMIT 1")
    .pluck();

  const actorOf = async (userId: number) =>
    ((await actorOfUser.get(userId)) as number | undefined) ?? 0;

  /** Removes a comment, then each deleted ancestor left without answers. */
  async function removeWithEmptyAncestors(id: number): Promise<void> {
    let current: number | null = id;
    while (current !== null) {
      const parent = (await parentOf.get(current)) as { parent_id: number | null } | undefined;
      await remove.run(current);
      const next: number | null = parent?.parent_id ?? null;
      if (next === null || !(await isTombstone.get(next)) || (await hasAnswers.get(next))) return;
      current = next;
    }
  }

  return {
    /**
     * An entry's comments the user reads (COMMENT_READABLE), in thread order (thread-order.ts):
     * each answer after its parent, under its nearest ancestor the user reads.
     */
    async comments(entry: { kind: Kind; id: number }, userId: number): Promise<CommentRecord[]> {
      const params = { entryId: entry.id, userId, actorId: await actorOf(userId) };
      const rows = (await thread[entry.kind].all(params)) as Record<string, unknown>[];
      const all = rows.map((row) => ({
        ...commentOf(row),
        readable: row.readable === 1,
      }));
      return threadOrder(all);
    },

    /** A comment under that entry that the user reads (a deleted one too); else undefined. */
    async readableComment(
      entry: { kind: Kind; id: number },
      id: number,
      userId: number,
    ): Promise<CommentRecord | undefined> {
      const params = { id, entryId: entry.id, userId, actorId: await actorOf(userId) };
      const row = (await readableComment[entry.kind].get(params)) as
        Record<string, unknown> | undefined;
      return row === undefined ? undefined : commentOf(row);
    },

    /** Addresses a comment to the actor (mentioned: named in its text); once per actor. */
    async addAddressee(commentId: number, actorId: number, isMentioned: boolean): Promise<void> {
      await insertAddressee.run(commentId, actorId, isMentioned ? 1 : 0);
    },

    /** Whom a comment is addressed to and mentions (for federation's to/cc and Mention tags). */
    async addresseesOf(commentId: number): Promise<Addressee[]> {
      const rows = (await addressees.all(commentId)) as { actor_id: number; mentioned: number }[];
      return rows.map((row) => ({ actorId: row.actor_id, mentioned: row.mentioned === 1 }));
    },

    /** The people each comment under the entry mentions, by comment id. */
    async mentionsOf(entry: { kind: Kind; id: number }): Promise<Map<number, MentionedActor[]>> {
      const found = new Map<number, MentionedActor[]>();
      const rows = (await mentioned[entry.kind].all(entry.id)) as Record<string, unknown>[];
      for (const row of rows) {
        const list = found.get(row.comment_id as number) ?? [];
        list.push({
          actorId: row.actor_id as number,
          username: row.username as string | null,
          handle: row.handle as string | null,
        });
        found.set(row.comment_id as number, list);
      }
      return found;
    },

    /** The cheers of each cheered comment under the entry as the user sees them, by id. */
    async commentCheersOf(
      entry: { kind: Kind; id: number },
      userId: number,
    ): Promise<Map<number, CommentCheers>> {
      const params = { entryId: entry.id, userId, actorId: await actorOf(userId) };
      const rows = (await cheersOfEntry[entry.kind].all(params)) as Record<string, number>[];
      return new Map(
        rows.map((row) => [
          row.comment_id!,
          { cheerCount: row.cheer_count!, cheeredByMe: row.cheered_by_me === 1 },
        ]),
      );
    },

    /** One comment's cheers as the user sees them. */
    async commentCheers(commentId: number, userId: number): Promise<CommentCheers> {
      const params = { commentId, userId, actorId: await actorOf(userId) };
      const row = (await cheersOfComment.get(params)) as Record<string, number>;
      return { cheerCount: row.cheer_count!, cheeredByMe: row.cheered_by_me === 1 };
    },

    /** The actor's cheer of a comment; its id, or undefined when they had cheered it already. */
    async addCommentCheer(
      commentId: number,
      actorId: number,
      at: number,
    ): Promise<number | undefined> {
      return (await insertCheer.get(commentId, actorId, at)) as number | undefined;
    },

    /** Takes the actor's cheer of a comment back; the id it had, or undefined for none. */
    async removeCommentCheer(commentId: number, actorId: number): Promise<number | undefined> {
      return (await deleteCheer.get(commentId, actorId)) as number | undefined;
    },

    /** A cheer of a comment, if it still exists. */
    async commentCheerById(
      id: number,
    ): Promise<{ id: number; commentId: number; actorId: number } | undefined> {
      const row = (await cheerRow.get(id)) as Record<string, number> | undefined;
      return row && { id: row.id!, commentId: row.comment_id!, actorId: row.actor_id! };
    },

    /** A comment's audience (contract/enums.ts COMMENT_AUDIENCES); undefined for no comment. */
    async commentAudienceOf(id: number): Promise<CommentAudience | undefined> {
      return (await audienceOf.get(id)) as CommentAudience | undefined;
    },

    /** The comment a comment answers: its id, null for an answer to the entry, undefined for none. */
    async parentOf(id: number): Promise<number | null | undefined> {
      const row = (await parentOf.get(id)) as { parent_id: number | null } | undefined;
      return row === undefined ? undefined : row.parent_id;
    },

    /**
     * Whether the user reads the comment (commentReadableSql), not deleted. Whether they may
     * see its entry is the caller's question.
     */
    async canRead(commentId: number, userId: number): Promise<boolean> {
      const params = { commentId, userId, actorId: await actorOf(userId) };
      return (await readable.get(params)) !== undefined;
    },

    /**
     * Deletes a comment: one with answers is kept as a tombstone (text cleared, `deleted_at`
     * set, its cheers gone), one without is removed, and so is each deleted comment above it
     * that it leaves without answers. Whether it was kept.
     */
    async deleteOrTombstone(id: number, at: number): Promise<'kept' | 'removed'> {
      if (await hasAnswers.get(id)) {
        await tombstone.run(at, at, id);
        await dropCheers.run(id);
        return 'kept';
      }
      await removeWithEmptyAncestors(id);
      return 'removed';
    },

    /** A local user's id by username, for `@name` in a comment. */
    async userIdByUsername(username: string): Promise<number | undefined> {
      return (await userByName.get(username)) as number | undefined;
    },

    /** A fediverse account the vault knows, by its handle '@name@host' (any case). */
    async remoteActorByHandle(handle: string): Promise<number | undefined> {
      return (await remoteByHandle.get(handle)) as number | undefined;
    },
  };
}
