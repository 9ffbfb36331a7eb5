/**
 * The thread's cached list of comments, changed in place of a refetch: a comment posted, one
 * deleted, a comment's cheers. Pure (unit-tested in test/web/thread-layout.test.ts).
 */
import type { Comment } from '../api/conversation.ts';

/** The list with the comment `id` changed by `change`; the same list when it is not there. */
export function withComment(
  list: Comment[] | undefined,
  id: number,
  change: (comment: Comment) => Partial<Comment>,
): Comment[] | undefined {
  if (!list?.some((comment) => comment.id === id)) return list;
  return list.map((comment) => (comment.id === id ? { ...comment, ...change(comment) } : comment));
}

/** The list with a new comment last (the server lists a thread oldest first). */
export function withPosted(list: Comment[] | undefined, posted: Comment): Comment[] {
  return [...(list ?? []).filter((comment) => comment.id !== posted.id), posted];
}

/** What a deleted comment still shows: nothing of who wrote it or what it said. */
const blanked = (comment: Comment): Partial<Comment> => ({
  deleted: true,
  content: '',
  canDelete: false,
  mentions: [],
  author: { ...comment.author, fullName: '', username: null, handle: null, avatarUrl: null },
});

/**
 * The list after the comment `id` was deleted, as the server now lists it: a comment with
 * answers stays as a deleted comment (no author, no text) so that its answers keep their place;
 * one without goes, and so does a deleted comment left without answers by it.
 */
export function withDeleted(list: Comment[] | undefined, id: number): Comment[] | undefined {
  if (!list) return list;
  let comments = list;
  let gone: number | null = id;
  while (gone !== null) {
    const target = comments.find((comment) => comment.id === gone);
    if (!target) break;
    const answered = comments.some((comment) => comment.parentId === gone);
    if (answered) {
      const deleted = gone;
      comments = comments.map((comment) =>
        comment.id === deleted ? { ...comment, ...blanked(comment) } : comment,
      );
      break;
    }
    comments = comments.filter((comment) => comment.id !== gone);
    const parent = comments.find((comment) => comment.id === target.parentId);
    gone = parent?.deleted ? parent.id : null;
  }
  return comments;
}

/** How many comments the thread shows that are not deleted: what the entry's count says. */
export const shownCount = (list: readonly Comment[]) =>
  list.filter((comment) => !comment.deleted).length;
