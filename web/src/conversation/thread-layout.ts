/**
 * The order and indentation of a thread: every answer right under its parent (after the
 * parent's earlier answers), indented one level per answer up to THREAD_LEVELS levels. Deeper
 * answers stay at the last level and say whom they answer, since the indentation no longer
 * shows it. No DOM or React here (unit-tested in test/web/thread-layout.test.ts).
 */
import type { Comment } from '../api/conversation.ts';

/**
 * How many levels a thread shows by indentation: a comment on the entry, its answers, and
 * theirs. Three fit the narrowest phone (320 px) with the text still readable.
 */
export const THREAD_LEVELS = 3;

/** What stands in for the author of a comment deleted after it was answered. */
export const DELETED_COMMENT = 'A deleted comment';

export interface ThreadRow {
  comment: Comment;
  /** 0 for a comment on the entry, 1 for an answer to it, … at most THREAD_LEVELS - 1. */
  level: number;
  /** Whom it answers (the parent's author, or 'a deleted comment'); null on the entry itself. */
  inReplyTo: string | null;
  /** It answers a comment at its own level, so the text must say whom it answers. */
  beyondLevels: boolean;
}

type Named = Pick<Comment, 'author' | 'deleted'>;

/** The name a comment's author goes by in the thread. */
export function authorName({ author, deleted }: Named): string {
  if (deleted) return DELETED_COMMENT;
  return author.fullName || author.username || author.handle || 'Someone';
}

/**
 * The thread's rows in the order shown. `comments` come oldest first; a comment whose parent is
 * not among them (one the viewer may not read) is shown as a comment on the entry.
 */
export function threadRows(comments: readonly Comment[]): ThreadRow[] {
  const byId = new Map(comments.map((comment) => [comment.id, comment]));
  const answers = new Map<number, Comment[]>();
  const roots: Comment[] = [];
  for (const comment of comments) {
    const parent = comment.parentId === null ? undefined : byId.get(comment.parentId);
    if (!parent || parent.id === comment.id) {
      roots.push(comment);
      continue;
    }
    const siblings = answers.get(parent.id);
    if (siblings) siblings.push(comment);
    else answers.set(parent.id, [comment]);
  }

  const rows: ThreadRow[] = [];
  const placed = new Set<number>();
  // Depth first without recursion (a thread from elsewhere may be thousands deep).
  const stack: { comment: Comment; depth: number; parent: Comment | null }[] = roots
    .map((comment) => ({ comment, depth: 0, parent: null }))
    .reverse();
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { comment, depth, parent } = item;
    if (placed.has(comment.id)) continue;
    placed.add(comment.id);
    rows.push({
      comment,
      level: Math.min(depth, THREAD_LEVELS - 1),
      inReplyTo: parent && (parent.deleted ? 'a deleted comment' : authorName(parent)),
      beyondLevels: depth >= THREAD_LEVELS,
    });
    const below = answers.get(comment.id) ?? [];
    for (let index = below.length - 1; index >= 0; index--) {
      stack.push({ comment: below[index]!, depth: depth + 1, parent: comment });
    }
  }
  // A cycle of parents (never sent by this vault) would leave its comments out: show them last.
  for (const comment of comments) {
    if (!placed.has(comment.id))
      rows.push({ comment, level: 0, inReplyTo: null, beyondLevels: false });
  }
  return rows;
}
