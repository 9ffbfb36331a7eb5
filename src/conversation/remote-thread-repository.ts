import type { Database } from '../db/database.ts';
import type { CommentAudience } from '../../contract/enums.ts';

/** A comment as a remote reply or Like of it needs it: where it is and who reads it. */
export interface ThreadComment {
  id: number;
  actorId: number;
  /** The local entry it is under; null for a comment on a remote vault's entry. */
  beverageId: number | null;
  audience: CommentAudience;
}

/** A reply a remote account sent, as stored (src/conversation/remote.ts decides what). */
export interface NewRemoteReply {
  beverageId: number;
  actorId: number;
  content: string;
  noteUri: string;
  /** The comment it answers; null for an answer to the entry. */
  parentId: number | null;
  audience: CommentAudience;
  at: number;
}

/**
 * The statements of what remote servers send into a conversation (src/conversation/remote.ts):
 * replies at any depth with their audience and addressees (`comments`,
 * `comment_addressees`), cheers of comments (`comment_cheers`), and the MENTION notification of
 * a fediverse post that is not a reply to anything here. Writes of these tables by local users
 * are the conversation repository's (repository.ts); these are the inbox's, matched by the
 * remote activity's id so that a replay changes nothing. The MENTION is the one notification
 * not written by src/notifications/repository.ts: it comes from no activity (nothing of the
 * post is stored), so its replay is matched by the post, its sender and its recipient instead
 * of the activity the notifications' repository keys them by.
 */
export function createRemoteThreadRepository(db: Database) {
  const threadComment = (where: string) =>
    db.prepare(
      `SELECT id, actor_id, beverage_id, audience FROM comments
       WHERE ${where} AND deleted_at IS NULL`,
    );
  const byId = threadComment('id = ?');
  // A local user's comment on a remote vault's entry, with the actor id of the entry's author.
  const foreignComment = db.prepare(
    `SELECT c.id, c.actor_id, c.remote_entry_id, a.uri AS entry_author FROM comments c
       JOIN remote_entries r ON r.id = c.remote_entry_id JOIN actors a ON a.id = r.actor_id
     WHERE c.id = ? AND c.deleted_at IS NULL`,
  );
  const byUri = threadComment('uri = ?');
  const insertReply = db
    .prepare(
      `INSERT INTO comments (actor_id, beverage_id, content, uri, parent_id, audience,
         created_at, updated_at)
       VALUES (@actorId, @beverageId, @content, @noteUri, @parentId, @audience, @at, @at)
       ON CONFLICT DO NOTHING RETURNING id`,
    )
    .pluck();
  // Named twice (in to/cc and in a Mention tag) is one row, mentioned.
  const insertAddressee = db.prepare(
    `INSERT INTO comment_addressees (comment_id, actor_id, mentioned) VALUES (?, ?, ?)
     ON CONFLICT (comment_id, actor_id) DO UPDATE SET mentioned = CASE
       WHEN excluded.mentioned > comment_addressees.mentioned THEN excluded.mentioned
       ELSE comment_addressees.mentioned END`,
  );
  const isAddressee = db
    .prepare('SELECT 1 FROM comment_addressees WHERE comment_id = ? AND actor_id = ?')
    .pluck();
  const insertCheer = db
    .prepare(
      `INSERT INTO comment_cheers (comment_id, actor_id, activity_uri, created_at)
       VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
    )
    .pluck();
  const deleteCheerByUri = db.prepare(
    'DELETE FROM comment_cheers WHERE activity_uri = ? AND actor_id = ? RETURNING id, comment_id',
  );
  // One MENTION per post, sender and recipient: a replayed Create adds nothing.
  const insertMention = db.prepare(
    `INSERT INTO notifications (recipient_id, type, status, sender_id, message, url, created_at)
     SELECT CAST(@recipientId AS bigint), 'MENTION', 'PENDING', CAST(@senderId AS bigint),
       CAST(@message AS text), CAST(@url AS text), CAST(@at AS bigint)
     WHERE NOT EXISTS (SELECT 1 FROM notifications WHERE recipient_id = @recipientId
       AND type = 'MENTION' AND sender_id = @senderId AND url = @url AND comment_id IS NULL)`,
  );

  function commentOf(row: Record<string, unknown> | undefined): ThreadComment | undefined {
    if (!row) return undefined;
    return {
      id: row.id as number,
      actorId: row.actor_id as number,
      beverageId: row.beverage_id as number | null,
      audience: row.audience as CommentAudience,
    };
  }

  return {
    /** A comment that may be answered or cheered (not deleted), by id. */
    async commentById(id: number): Promise<ThreadComment | undefined> {
      return commentOf((await byId.get(id)) as Record<string, unknown> | undefined);
    },

    /**
     * A comment (not deleted) on a remote vault's entry, with the entry and its author's actor
     * id: that vault holds its thread.
     */
    async foreignThreadComment(
      id: number,
    ): Promise<
      { id: number; actorId: number; remoteEntryId: number; entryAuthorUri: string } | undefined
    > {
      const row = (await foreignComment.get(id)) as Record<string, unknown> | undefined;
      if (!row) return undefined;
      return {
        id: row.id as number,
        actorId: row.actor_id as number,
        remoteEntryId: row.remote_entry_id as number,
        entryAuthorUri: row.entry_author as string,
      };
    },

    /** A stored remote reply that may be answered or cheered, by its Note's id. */
    async commentByUri(noteUri: string): Promise<ThreadComment | undefined> {
      return commentOf((await byUri.get(noteUri)) as Record<string, unknown> | undefined);
    },

    /** Whether the actor is one of the comment's addressees. */
    async isAddressee(commentId: number, actorId: number): Promise<boolean> {
      return (await isAddressee.get(commentId, actorId)) !== undefined;
    },

    /** Stores a reply; its id, or undefined when that Note is stored already. */
    async addReply(reply: NewRemoteReply): Promise<number | undefined> {
      return (await insertReply.get(reply)) as number | undefined;
    },

    /** Adds the comment's addressees (mentioned ones marked). */
    async addAddressees(
      commentId: number,
      addressees: { actorId: number; mentioned: boolean }[],
    ): Promise<void> {
      for (const { actorId, mentioned } of addressees) {
        await insertAddressee.run(commentId, actorId, mentioned ? 1 : 0);
      }
    },

    /** A remote account's cheer of a comment; its id, or undefined when it had cheered. */
    async addCheer(
      commentId: number,
      actorId: number,
      likeUri: string,
      at: number,
    ): Promise<number | undefined> {
      return (await insertCheer.get(commentId, actorId, likeUri, at)) as number | undefined;
    },

    /** Takes back the actor's cheer of a comment made by that Like; the cheer and its comment. */
    async removeCheerByUri(
      likeUri: string,
      actorId: number,
    ): Promise<{ id: number; commentId: number } | undefined> {
      const row = (await deleteCheerByUri.get(likeUri, actorId)) as
        { id: number; comment_id: number } | undefined;
      return row && { id: row.id, commentId: row.comment_id };
    },

    /** A MENTION from a fediverse post that is not a comment here; false when it was told. */
    async addMention(mention: {
      recipientId: number;
      senderId: number;
      message: string;
      url: string;
      at: number;
    }): Promise<boolean> {
      return (await insertMention.run(mention)).changes > 0;
    },
  };
}

export type RemoteThreadRepository = ReturnType<typeof createRemoteThreadRepository>;
