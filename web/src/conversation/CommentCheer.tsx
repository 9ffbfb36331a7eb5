import { useMutation, useQueryClient } from '@tanstack/react-query';
import { setCommentCheer } from '../api/conversation.ts';
import type { Comment, ConversationTarget } from '../api/conversation.ts';
import type { DialogNote } from '../notes/dialog-note.ts';
import { messageOf } from '../notes/notes.tsx';
import { afterCheer, commentsKey } from './counts.ts';
import { withComment } from './thread-cache.ts';

export const COMMENT_CHEER_FAILED = 'The cheer could not be sent';

/** What the note says once the server has the cheer, or has it taken back. */
export const commentCheerNote = (name: string, cheered: boolean) =>
  cheered ? `You cheered the comment by ${name}` : `Cheer of the comment by ${name} taken back`;

/**
 * The cheer of one comment ('🥂 2', pressed once the user cheered it; named 'Cheer the comment
 * by {name}, 2 cheers'). The thread's copy changes at once and takes the server's counts when it
 * answers, or goes back with a note when it refuses; clicks on one comment are sent in order.
 * The thread's note says what was done.
 */
export function CommentCheer({
  target,
  comment,
  name,
  onNote,
}: {
  target: ConversationTarget;
  comment: Comment;
  name: string;
  /** Says what happened, in the thread. */
  onNote: (note: DialogNote) => void;
}) {
  const queryClient = useQueryClient();
  const key = commentsKey(target);
  const change = (counts: (current: Comment) => Partial<Comment>) =>
    queryClient.setQueryData<Comment[]>(key, (list) => withComment(list, comment.id, counts));
  const cheer = useMutation({
    scope: { id: `comment-cheer:${target.kind}:${target.id}:${comment.id}` },
    mutationFn: (cheered: boolean) => setCommentCheer(target, comment.id, cheered),
    onMutate: (cheered) => change((current) => afterCheer(current, cheered)),
    onSuccess: (counts, cheered) => {
      change(() => counts);
      onNote({ kind: 'success', message: commentCheerNote(name, cheered) });
    },
    onError: (caught, cheered) => {
      change((current) => afterCheer(current, !cheered));
      onNote({ kind: 'error', message: messageOf(caught, COMMENT_CHEER_FAILED) });
    },
  });
  const { cheerCount, cheeredByMe } = comment;
  return (
    <button
      type="button"
      className={`chip-button comment__cheer${cheeredByMe ? ' is-cheered' : ''}`}
      aria-pressed={cheeredByMe}
      aria-label={`Cheer the comment by ${name}, ${cheerCount} ${cheerCount === 1 ? 'cheer' : 'cheers'}`}
      onClick={() => cheer.mutate(!cheeredByMe)}
    >
      <span aria-hidden="true">🥂</span>
      <span className="comment__cheer-count">{cheerCount}</span>
    </button>
  );
}
