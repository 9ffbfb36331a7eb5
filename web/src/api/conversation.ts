/**
 * The conversation under an entry: cheers and comments. The same calls serve an entry of this
 * vault (/beverages/{id}/…) and one received from a remote vault in the activity feed
 * (/activity/remote-entries/{id}/…). Every call is typed from the route table (./call.ts).
 */
import type {
  CheerResponse,
  Comment,
  CommentCheerResponse,
} from '../../../contract/conversation.ts';
import { call } from './call.ts';

export type {
  Comment,
  CommentAuthor,
  CommentCheerResponse,
  CommentMention,
  ConversationCounts,
} from '../../../contract/conversation.ts';

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

/**
 * What a new comment says, and whom it answers: `inReplyTo` a comment under the same entry,
 * `private` for that comment's author alone.
 */
export interface NewComment {
  content: string;
  inReplyTo?: number;
  private?: boolean;
}

/** POST …/comments {content, inReplyTo?, private?} → the new comment. */
export async function postComment(target: ConversationTarget, json: NewComment): Promise<Comment> {
  const input = { params: { id: target.id }, json };
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

/** POST (cheer) or DELETE (take it back) …/comments/{commentId}/cheer → the comment's cheers. */
export function setCommentCheer(
  target: ConversationTarget,
  commentId: number,
  cheered: boolean,
): Promise<CommentCheerResponse> {
  const input = { params: { id: target.id, commentId } };
  if (target.kind === 'remote') {
    return cheered
      ? call('POST /activity/remote-entries/{id}/comments/{commentId}/cheer', input)
      : call('DELETE /activity/remote-entries/{id}/comments/{commentId}/cheer', input);
  }
  return cheered
    ? call('POST /beverages/{id}/comments/{commentId}/cheer', input)
    : call('DELETE /beverages/{id}/comments/{commentId}/cheer', input);
}
