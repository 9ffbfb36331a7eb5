import type { Database } from '../db/database.ts';
import { COMMENT_AUDIENCES, type CommentAudience } from '../../contract/enums.ts';

/**
 * A party of a comment's Note: a local user (`username`, whose actor id the origin gives) or a
 * remote account (`uri`, `handle`, its inboxes).
 */
export interface NoteParty {
  actorId: number;
  /** The local user's username; null for a remote account. */
  username: string | null;
  /** Whether the local user federates (always true for a remote account). */
  federates: boolean;
  uri: string | null;
  /** '@name@host' of a remote account; null for a local user or when unknown. */
  handle: string | null;
  inboxUrl: string | null;
  sharedInboxUrl: string | null;
}

/** A comment as its Note is written from: its row, its author, what it answers. */
export interface CommentForNote {
  id: number;
  beverageId: number | null;
  remoteEntryId: number | null;
  content: string;
  /** A remote account's reply's own Note id; null for a local user's comment. */
  uri: string | null;
  createdAt: Date;
  audience: CommentAudience;
  deleted: boolean;
  author: NoteParty;
  /** The comment it answers, when it answers one that is still stored. */
  parent: { id: number; uri: string | null; author: NoteParty } | null;
}

/** A remote follower of an entry's owner, and whether it follows the comment's author too. */
export interface OwnerFollower {
  followId: number;
  actorId: number;
  uri: string;
  inboxUrl: string | null;
  sharedInboxUrl: string | null;
  handle: string | null;
  followsAuthor: boolean;
}

const PARTY = `a.id AS actor_id, u.username, coalesce(u.activitypub_enabled, 1) AS federates,
  a.uri, a.handle, a.inbox_url, a.shared_inbox_url`;
const PARTY_JOIN = (alias: string) =>
  `JOIN actors a ON a.id = ${alias} LEFT JOIN users u ON u.id = a.user_id`;

function partyOf(row: Record<string, unknown>): NoteParty {
  return {
    actorId: row.actor_id as number,
    username: (row.username as string | null) ?? null,
    federates: row.federates === 1,
    uri: (row.uri as string | null) ?? null,
    handle: (row.handle as string | null) ?? null,
    inboxUrl: (row.inbox_url as string | null) ?? null,
    sharedInboxUrl: (row.shared_inbox_url as string | null) ?? null,
  };
}

function audienceOf(value: unknown): CommentAudience {
  return (COMMENT_AUDIENCES as readonly unknown[]).includes(value)
    ? (value as CommentAudience)
    : 'PUBLIC';
}

/**
 * What federation reads to write a comment's Note, a Like of it and their recipients
 * (federation/conversation-handoff.ts, comment-notes.ts): reads only, the writes are the
 * conversation repository's.
 */
export function createNoteReads(db: Database) {
  const comment = db.prepare(
    `SELECT c.id, c.beverage_id, c.remote_entry_id, c.content, c.uri AS note_uri, c.created_at, c.audience,
            c.deleted_at, c.parent_id, ${PARTY}
     FROM comments c ${PARTY_JOIN('c.actor_id')} WHERE c.id = ?`,
  );
  const parent = db.prepare(
    `SELECT c.id, c.uri AS note_uri, ${PARTY} FROM comments c ${PARTY_JOIN('c.actor_id')} WHERE c.id = ?`,
  );
  const addressees = db.prepare(
    `SELECT ca.mentioned, ${PARTY}
     FROM comment_addressees ca ${PARTY_JOIN('ca.actor_id')}
     WHERE ca.comment_id = ? ORDER BY ca.actor_id`,
  );
  const commentCheer = db.prepare(
    'SELECT id, comment_id, actor_id FROM comment_cheers WHERE id = ?',
  );
  const ownerFollowers = db.prepare(
    `SELECT f.id AS follow_id, a.id AS actor_id, a.uri, a.inbox_url, a.shared_inbox_url, a.handle,
       CASE WHEN EXISTS (SELECT 1 FROM follows g WHERE g.follower_id = a.id
                   AND g.followed_id = @authorActorId AND g.state = 'ACCEPTED')
         THEN 1 ELSE 0 END AS follows_author
     FROM actors owner
     JOIN follows f ON f.followed_id = owner.id AND f.state = 'ACCEPTED'
     JOIN actors a ON a.id = f.follower_id AND a.kind = 'remote'
     WHERE owner.user_id = @ownerId AND f.id > @afterId
     ORDER BY f.id LIMIT @limit`,
  );

  return {
    /** A comment with its author and the comment it answers; undefined when it is gone. */
    async comment(id: number): Promise<CommentForNote | undefined> {
      const row = (await comment.get(id)) as Record<string, unknown> | undefined;
      if (!row) return undefined;
      const parentRow =
        row.parent_id === null
          ? undefined
          : ((await parent.get(row.parent_id)) as Record<string, unknown> | undefined);
      return {
        id: row.id as number,
        beverageId: row.beverage_id as number | null,
        remoteEntryId: row.remote_entry_id as number | null,
        content: row.content as string,
        uri: row.note_uri as string | null,
        createdAt: new Date(row.created_at as number),
        audience: audienceOf(row.audience),
        deleted: row.deleted_at !== null,
        author: partyOf(row),
        parent: parentRow
          ? {
              id: parentRow.id as number,
              uri: parentRow.note_uri as string | null,
              author: partyOf(parentRow),
            }
          : null,
      };
    },

    /** Whom the comment is addressed to (`mentioned`: named in it), local and remote. */
    async addressees(commentId: number): Promise<(NoteParty & { mentioned: boolean })[]> {
      return ((await addressees.all(commentId)) as Record<string, unknown>[]).map((row) => ({
        ...partyOf(row),
        mentioned: row.mentioned === 1,
      }));
    },

    /** A cheer of a comment; undefined once it is taken back. */
    async commentCheer(
      id: number,
    ): Promise<{ id: number; commentId: number; actorId: number } | undefined> {
      const row = (await commentCheer.get(id)) as Record<string, number> | undefined;
      return row && { id: row.id!, commentId: row.comment_id!, actorId: row.actor_id! };
    },

    /**
     * The accepted remote followers of the local user `ownerId` after the follow `afterId`, in
     * follow order, each with whether it also follows the actor `authorActorId`.
     */
    async ownerFollowers(
      ownerId: number,
      authorActorId: number,
      afterId: number,
      limit: number,
    ): Promise<OwnerFollower[]> {
      const rows = await ownerFollowers.all({ ownerId, authorActorId, afterId, limit });
      return (rows as Record<string, unknown>[]).map((row) => ({
        followId: row.follow_id as number,
        actorId: row.actor_id as number,
        uri: row.uri as string,
        inboxUrl: row.inbox_url as string | null,
        sharedInboxUrl: row.shared_inbox_url as string | null,
        handle: row.handle as string | null,
        followsAuthor: row.follows_author === 1,
      }));
    },
  };
}

export type NoteReads = ReturnType<typeof createNoteReads>;
