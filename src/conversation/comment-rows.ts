import type { CommentAudience } from '../../contract/enums.ts';

// How the conversation's statements read a comment (src/conversation/repository.ts and
// thread-repository.ts): its columns with its author's names, and the record made of them.

/** A comment with what the thread shows of its author. */
export interface CommentRecord {
  id: number;
  actorId: number;
  content: string;
  createdAt: Date;
  parentId: number | null;
  audience: CommentAudience;
  deleted: boolean;
  author: {
    /** The author's local user, or null for a remote account. */
    userId: number | null;
    fullName: string;
    username: string | null;
    handle: string | null;
    avatarUrl: string | null;
  };
}

/** A comment with its author's names, and `extra` columns. */
export const commentSelect = (extra = '') => `SELECT c.id, c.actor_id, c.content, c.created_at,
         c.parent_id, c.audience, c.deleted_at, a.user_id,${extra}
         coalesce(u.full_name, a.display_name, '') AS full_name, u.username,
         CASE WHEN u.id IS NULL THEN coalesce(a.handle, a.uri) END AS handle,
         CASE WHEN u.id IS NULL THEN a.avatar_url
              WHEN u.avatar_path IS NOT NULL THEN '/' || u.avatar_path END AS avatar_url
  FROM comments c JOIN actors a ON a.id = c.actor_id LEFT JOIN users u ON u.id = a.user_id`;
export const COMMENT = commentSelect();

/** A comment's row; a deleted one (kept for its answers) shows no text and no author. */
export function commentOf(row: Record<string, unknown>): CommentRecord {
  const deleted = row.deleted_at !== null;
  return {
    id: row.id as number,
    actorId: row.actor_id as number,
    content: deleted ? '' : (row.content as string),
    createdAt: new Date(row.created_at as number),
    parentId: row.parent_id as number | null,
    audience: row.audience as CommentAudience,
    deleted,
    author: {
      userId: deleted ? null : (row.user_id as number | null),
      fullName: deleted ? '' : (row.full_name as string),
      username: deleted ? null : (row.username as string | null),
      handle: deleted ? null : (row.handle as string | null),
      avatarUrl: deleted ? null : (row.avatar_url as string | null),
    },
  };
}
