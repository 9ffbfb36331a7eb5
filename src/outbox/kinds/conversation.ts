import { z } from 'zod';
import { COMMENT_AUDIENCES } from '../../../contract/enums.ts';
import { activityKind, keyOf } from '../kind.ts';

const id = z.int().positive();
/** A cheer of an entry, made or taken back, by a local user or a remote one. */
const cheer = {
  emittedBy: 'anyone',
  payload: z.object({ cheerId: id }),
  orderingKey: keyOf('cheer', 'cheerId'),
} as const;
/** A cheer of a comment, made or taken back, by a local user or a remote one. */
const commentCheer = {
  emittedBy: 'anyone',
  payload: z.object({ commentCheerId: id, commentId: id }),
  orderingKey: keyOf('comment-cheer', 'commentCheerId'),
} as const;
const ofComment = keyOf('comment', 'commentId');

/**
 * Cheers and comments, of local users or received from remote ones (src/conversation/): read by
 * the notifications (src/conversation/notifications.ts) and sent by federation when a local
 * user's (federation/conversation-handoff.ts). One cheer's, and one comment's, reach Fedify in
 * the order recorded (a Like before its Undo, a comment before its Delete).
 */
export const conversationKinds = {
  Like: activityKind(cheer),
  UndoLike: activityKind({ ...cheer, transient: true }),
  /** A comment, or an answer to one. */
  Comment: activityKind({
    emittedBy: 'anyone',
    payload: z.object({ commentId: id }),
    orderingKey: ofComment,
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
    orderingKey: ofComment,
  }),
  LikeComment: activityKind(commentCheer),
  UndoLikeComment: activityKind({ ...commentCheer, transient: true }),
};
