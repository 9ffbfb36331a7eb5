import type { Database } from '../db/database.ts';
import type { CommentAudience } from '../../contract/enums.ts';
import { COMMENT, commentOf, type CommentRecord } from './comment-rows.ts';
import { createCountStatements } from './count-repository.ts';
import { createThreadStatements } from './thread-repository.ts';

export type { CommentRecord } from './comment-rows.ts';

/** Which entry a conversation is under: a local entry or one received from a remote vault. */
export interface EntryRef {
  kind: 'local' | 'remote';
  id: number;
}

const COLUMN = { local: 'beverage_id', remote: 'remote_entry_id' } as const;

/** Both kinds of entry, one prepared statement each. */
function perKind<T>(make: (column: string) => T): Record<EntryRef['kind'], T> {
  return { local: make(COLUMN.local), remote: make(COLUMN.remote) };
}

/**
 * Data access for cheers and comments: the only place that queries `cheers` and `comments`,
 * with the thread's statements (thread-repository.ts) and the counts (count-repository.ts)
 * spread into it. Every statement is one range of an index that starts with the entry
 * (cheers_*_actor_unique, comments_*_idx).
 */
export function createConversationRepository(db: Database) {
  const insertCheer = perKind((col) =>
    db
      .prepare(
        `INSERT INTO cheers (actor_id, ${col}, created_at) VALUES (?, ?, ?)
         ON CONFLICT DO NOTHING RETURNING id`,
      )
      .pluck(),
  );
  const deleteCheer = perKind((col) =>
    db.prepare(`DELETE FROM cheers WHERE ${col} = ? AND actor_id = ? RETURNING id`).pluck(),
  );
  const cheerExists = db.prepare('SELECT 1 FROM cheers WHERE id = ?').pluck();
  const insertComment = perKind((col) =>
    db
      .prepare(
        `INSERT INTO comments (actor_id, ${col}, content, parent_id, audience, created_at,
           updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .pluck(),
  );
  const oneComment = perKind((col) => db.prepare(`${COMMENT} WHERE c.id = ? AND c.${col} = ?`));
  const commentById = db.prepare('SELECT id, content FROM comments WHERE id = ?');
  const deleteComment = db.prepare('DELETE FROM comments WHERE id = ?');
  // What remote accounts send (src/conversation/remote.ts): matched by their activity's id.
  const insertRemoteCheer = db
    .prepare(
      `INSERT INTO cheers (actor_id, beverage_id, activity_uri, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT DO NOTHING RETURNING id`,
    )
    .pluck();
  const deleteCheerByUri = db.prepare(
    'DELETE FROM cheers WHERE activity_uri = ? AND actor_id = ? RETURNING id, beverage_id',
  );
  const insertRemoteComment = db
    .prepare(
      `INSERT INTO comments (actor_id, beverage_id, content, uri, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
    )
    .pluck();
  const commentByUri = db.prepare(
    'SELECT id, actor_id, beverage_id, updated_at FROM comments WHERE uri = ?',
  );
  const updateComment = db.prepare('UPDATE comments SET content = ?, updated_at = ? WHERE id = ?');
  const commentRow = db.prepare(
    'SELECT id, actor_id, beverage_id, remote_entry_id, content, uri, created_at FROM comments WHERE id = ?',
  );

  async function findComment(entry: EntryRef, id: number): Promise<CommentRecord | undefined> {
    const row = (await oneComment[entry.kind].get(id, entry.id)) as
      Record<string, unknown> | undefined;
    return row && commentOf(row);
  }

  const ownEntries = 'SELECT id FROM beverages WHERE user_id = ?';
  const deleteActorCheers = db.prepare(
    `DELETE FROM cheers WHERE actor_id = ? AND beverage_id IN (${ownEntries})`,
  );
  const deleteActorCommentCheers = db.prepare(
    `DELETE FROM comment_cheers WHERE actor_id = ?
       AND comment_id IN (SELECT id FROM comments WHERE beverage_id IN (${ownEntries}))`,
  );
  // Newest first, so that the actor's own answers go before the comments they answer.
  const actorComments = db
    .prepare(
      `SELECT id FROM comments WHERE actor_id = ? AND beverage_id IN (${ownEntries})
         AND deleted_at IS NULL ORDER BY id DESC`,
    )
    .pluck();
  const threadStatements = createThreadStatements(db);
  return {
    ...threadStatements,
    ...createCountStatements(db),

    /**
     * Removes the actor's cheers, cheers of comments and comments on the user's entries (a
     * block); how many. A comment that others answered stays as a deleted comment
     * (deleteOrTombstone), so their answers keep their place.
     */
    async removeActorOnEntriesOf(actorId: number, userId: number): Promise<number> {
      let removed = (await deleteActorCheers.run(actorId, userId)).changes;
      removed += (await deleteActorCommentCheers.run(actorId, userId)).changes;
      const at = Date.now();
      for (const id of (await actorComments.all(actorId, userId)) as number[]) {
        await threadStatements.deleteOrTombstone(id, at);
        removed++;
      }
      return removed;
    },

    /** Adds the actor's cheer; its id, or undefined when the actor had cheered already. */
    async addCheer(entry: EntryRef, actorId: number, at: number): Promise<number | undefined> {
      return (await insertCheer[entry.kind].get(actorId, entry.id, at)) as number | undefined;
    },

    /** Takes the actor's cheer back; the id it had, or undefined when there was none. */
    async removeCheer(entry: EntryRef, actorId: number): Promise<number | undefined> {
      return (await deleteCheer[entry.kind].get(entry.id, actorId)) as number | undefined;
    },

    async cheerExists(id: number): Promise<boolean> {
      return (await cheerExists.get(id)) !== undefined;
    },

    /** A local user's comment; an answer names its parent (under the same entry). */
    async addComment(
      entry: EntryRef,
      actorId: number,
      content: string,
      at: number,
      thread: { parentId: number | null; audience: CommentAudience } = {
        parentId: null,
        audience: 'PUBLIC',
      },
    ): Promise<CommentRecord> {
      const id = (await insertComment[entry.kind].get(
        actorId,
        entry.id,
        content,
        thread.parentId,
        thread.audience,
        at,
        at,
      )) as number;
      return (await findComment(entry, id))!;
    },

    /** A comment under that entry (undefined for another entry's or an unknown id). */
    findComment,

    /** A comment by id alone, whichever entry it is under (for its notification). */
    async commentById(id: number): Promise<{ id: number; content: string } | undefined> {
      return (await commentById.get(id)) as { id: number; content: string } | undefined;
    },

    /** A remote account's cheer of a local entry, by its Like's id; undefined if it had one. */
    async addRemoteCheer(beverageId: number, actorId: number, likeUri: string, at: number) {
      return (await insertRemoteCheer.get(actorId, beverageId, likeUri, at)) as number | undefined;
    },

    /** Takes back the actor's cheer made by that Like; the cheer and its entry, if there was one. */
    async removeCheerByUri(
      likeUri: string,
      actorId: number,
    ): Promise<{ id: number; beverageId: number } | undefined> {
      const row = (await deleteCheerByUri.get(likeUri, actorId)) as
        { id: number; beverage_id: number | null } | undefined;
      return row?.beverage_id == null ? undefined : { id: row.id, beverageId: row.beverage_id };
    },

    /** A remote account's reply to a local entry; undefined when that Note is stored already. */
    async addRemoteComment(
      beverageId: number,
      actorId: number,
      content: string,
      noteUri: string,
      at: number,
    ): Promise<number | undefined> {
      return (await insertRemoteComment.get(actorId, beverageId, content, noteUri, at, at)) as
        number | undefined;
    },

    /** A stored reply by its Note's id. */
    async commentByUri(
      noteUri: string,
    ): Promise<
      { id: number; actorId: number; beverageId: number | null; updatedAt: number } | undefined
    > {
      const row = (await commentByUri.get(noteUri)) as Record<string, number | null> | undefined;
      if (!row) return undefined;
      return {
        id: row.id!,
        actorId: row.actor_id!,
        beverageId: row.beverage_id ?? null,
        updatedAt: row.updated_at!,
      };
    },

    /** Replaces a comment's text (an edited reply). */
    async updateComment(id: number, content: string, at: number): Promise<void> {
      await updateComment.run(content, at, id);
    },

    /** A comment's own row, whichever entry it is under (federation: the Note of a comment). */
    async commentRow(id: number): Promise<
      | {
          id: number;
          actorId: number;
          beverageId: number | null;
          remoteEntryId: number | null;
          content: string;
          /** The Note id of a remote account's reply; null for a local user's comment. */
          uri: string | null;
          createdAt: Date;
        }
      | undefined
    > {
      const row = (await commentRow.get(id)) as Record<string, unknown> | undefined;
      if (!row) return undefined;
      return {
        id: row.id as number,
        actorId: row.actor_id as number,
        beverageId: row.beverage_id as number | null,
        remoteEntryId: row.remote_entry_id as number | null,
        content: row.content as string,
        uri: row.uri as string | null,
        createdAt: new Date(row.created_at as number),
      };
    },

    /** Deletes a comment (its notification goes with it: notifications.comment_id cascades). */
    async deleteComment(id: number): Promise<boolean> {
      return (await deleteComment.run(id)).changes > 0;
    },
  };
}

export type ConversationRepository = ReturnType<typeof createConversationRepository>;
