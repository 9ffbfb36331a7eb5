/**
 * The conversation under an entry: cheers and comments. The same calls serve an entry of this
 * vault (/beverages/{id}/…) and one received from a remote vault in the activity feed
 * (/activity/remote-entries/{id}/…). Every call goes through the one API module's `request`; the
 * shapes come from contract/conversation.ts as types only.
 */
import type { CheerResponse, Comment, ConversationCounts } from '../../../contract/conversation.ts';
import { ApiError, INVALID_RESPONSE, request } from './client.ts';

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** POST (cheer) or DELETE (take it back) …/cheer → the entry's counts as they now are. */
export async function setCheer(
  target: ConversationTarget,
  cheered: boolean,
): Promise<CheerResponse> {
  const data = await request(
    `${entryPath(target)}/cheer`,
    cheered ? { json: {} } : { method: 'DELETE' },
  );
  if (!isRecord(data) || typeof data.cheerCount !== 'number') {
    throw new ApiError(INVALID_RESPONSE, 200);
  }
  return data as unknown as ConversationCounts;
}

/** GET …/comments → the comments, oldest first. */
export async function fetchComments(
  target: ConversationTarget,
  signal?: AbortSignal,
): Promise<Comment[]> {
  const data = await request(`${entryPath(target)}/comments`, { signal });
  if (!isRecord(data) || !Array.isArray(data.comments)) throw new ApiError(INVALID_RESPONSE, 200);
  return data.comments as Comment[];
}

/** POST …/comments {content} → the new comment. */
export async function postComment(target: ConversationTarget, content: string): Promise<Comment> {
  const data = await request(`${entryPath(target)}/comments`, { json: { content } });
  if (!isRecord(data) || !isRecord(data.comment)) throw new ApiError(INVALID_RESPONSE, 201);
  return data.comment as unknown as Comment;
}

/** DELETE …/comments/{commentId}. */
export async function deleteComment(target: ConversationTarget, commentId: number): Promise<void> {
  await request(`${entryPath(target)}/comments/${commentId}`, { method: 'DELETE' });
}
