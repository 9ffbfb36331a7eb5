/**
 * The conversation under an entry: cheers and comments. The same calls serve an entry of this
 * vault (/beverages/{id}/…) and one received from a remote vault in the activity feed
 * (/activity/remote-entries/{id}/…). Every call is typed from the route table (./call.ts).
 */
import type { CheerResponse, Comment } from '../../../contract/conversation.ts';
import { call } from './call.ts';

export type { Comment, CommentAuthor, ConversationCounts } from '../../../contract/conversation.ts';

/**
 * The longest comment, in characters: the contract's COMMENT_MAX_LENGTH, written here because a
 * value from contract/ would bring zod into the client (test/web/comment-links.test.ts checks
 * they agree).
 */
export const COMMENT_MAX_LENGTH = 1000;

/** Whose conversation: an entry of this vault, or a remote vault's entry in the feed. */
export interface ConversationTarget {
  kind: 'local' | 'remote';
  /** The Beverage id (local) or the remote entry's id (remote). */
  id: number;
}

/** The path under /api of the target's entry. */
export function entryPath({ kind, id }: ConversationTarget): string {
  return kind === 'remote' ? `/activity/remote-entries/${id}` : `/beverages/${id}`;
}

/** POST (cheer) or DELETE (take it back) …/cheer → the entry's counts as they now are. */
export function setCheer(target: ConversationTarget, cheered: boolean): Promise<CheerResponse> {
  const params = { id: target.id };
  if (target.kind === 'remote') {
    return cheered
      ? call('POST /activity/remote-entries/{id}/cheer', { params })
      : call('DELETE /activity/remote-entries/{id}/cheer', { params });
  }
  return cheered
    ? call('POST /beverages/{id}/cheer', { params })
    : call('DELETE /beverages/{id}/cheer', { params });
}

/** GET …/comments → the comments, oldest first. */
export async function fetchComments(
  target: ConversationTarget,
  signal?: AbortSignal,
): Promise<Comment[]> {
  const input = { params: { id: target.id }, signal };
  const { comments } =
    target.kind === 'remote'
      ? await call('GET /activity/remote-entries/{id}/comments', input)
      : await call('GET /beverages/{id}/comments', input);
  return comments;
}

/** POST …/comments {content} → the new comment. */
export async function postComment(target: ConversationTarget, content: string): Promise<Comment> {
  const input = { params: { id: target.id }, json: { content } };
  const { comment } =
    target.kind === 'remote'
      ? await call('POST /activity/remote-entries/{id}/comments', input)
      : await call('POST /beverages/{id}/comments', input);
  return comment;
}

/** DELETE …/comments/{commentId}. */
export async function deleteComment(target: ConversationTarget, commentId: number): Promise<void> {
  const input = { params: { id: target.id, commentId } };
  await (target.kind === 'remote'
    ? call('DELETE /activity/remote-entries/{id}/comments/{commentId}', input)
    : call('DELETE /beverages/{id}/comments/{commentId}', input));
}
