import { z } from 'zod';
import { COMMENT_AUDIENCES } from '../../../contract/enums.ts';
import { activityKind } from '../kind.ts';

const id = z.int().positive();
const cheer = z.object({ cheerId: id });
const commentCheer = z.object({ commentCheerId: id, commentId: id });

/**
 * Cheers and comments, of local users or received from remote ones (src/conversation/): read by
 * the notifications (src/conversation/notifications.ts) and sent by federation when a local
 * user's (federation/conversation-handoff.ts). One cheer's, and one comment's, reach Fedify in
 * the order recorded (a Like before its Undo, a comment before its Delete).
 */
export const conversationKinds = {
  /** A cheer of an entry. */
  Like: activityKind({
    emittedBy: 'anyone',
    payload: cheer,
    orderingKey: (_activity, payload) => payload && `cheer:${payload.cheerId}`,
  }),
  /** A cheer of an entry taken back. */
  UndoLike: activityKind({
    emittedBy: 'anyone',
    payload: cheer,
    transient: true,
    orderingKey: (_activity, payload) => payload && `cheer:${payload.cheerId}`,
  }),
  /** A comment, or an answer to one. */
  Comment: activityKind({
    emittedBy: 'anyone',
    payload: z.object({ commentId: id }),
    orderingKey: (_activity, payload) => payload && `comment:${payload.commentId}`,
  }),
  /**
   * A comment deleted (by its author or the entry's owner): its Delete is its author's
   * (`authorId`), addressed as its Note was (`audience`, `addresseeIds`) once the row is gone.
   */
  DeleteComment: activityKind({
    emittedBy: 'local',
    payload: z.object({
      commentId: id,
      authorId: id.optional(),
      audience: z.enum(COMMENT_AUDIENCES).optional(),
      addresseeIds: z.array(id).optional(),
    }),
    transient: true,
    orderingKey: (_activity, payload) => payload && `comment:${payload.commentId}`,
  }),
  /** A cheer of a comment. */
  LikeComment: activityKind({
    emittedBy: 'anyone',
    payload: commentCheer,
    orderingKey: (_activity, payload) => payload && `comment-cheer:${payload.commentCheerId}`,
  }),
  /** A cheer of a comment taken back. */
  UndoLikeComment: activityKind({
    emittedBy: 'anyone',
    payload: commentCheer,
    transient: true,
    orderingKey: (_activity, payload) => payload && `comment-cheer:${payload.commentCheerId}`,
  }),
};
