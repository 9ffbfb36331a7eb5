import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { deleteComment, fetchComments } from '../api/conversation.ts';
import type { Comment, ConversationTarget } from '../api/conversation.ts';
import { useDialogNote } from '../notes/dialog-note.ts';
import { messageOf } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { changeCounts, commentsKey } from './counts.ts';
import { CommentForm } from './CommentForm.tsx';
import { CommentItem } from './CommentItem.tsx';
import { shownCount, withDeleted, withPosted } from './thread-cache.ts';
import { authorName, threadRows } from './thread-layout.ts';
import './thread.css';

export { COMMENT_FAILED, COMMENT_REQUIRED } from './CommentForm.tsx';
export const NO_COMMENTS = 'No comments yet.';
export const COMMENTS_FAILED = 'Unable to load comments.';
export const DELETE_COMMENT_FAILED = 'Failed to delete comment';
export const COMMENT_DELETED = 'Comment deleted';

/** What the note says once a comment or a reply is in the thread. */
export const postedNote = (reply: { to: string; only: boolean } | null) =>
  !reply
    ? 'Comment sent'
    : reply.only
      ? `Private reply sent to ${reply.to}`
      : `Reply to ${reply.to} sent`;

/**
 * The thread under an entry, in a dialog: its comments, every answer under the comment it
 * answers (thread-layout.ts), the form to add one, 'Reply' on each (one reply form open at a
 * time, in place) and 'Delete' on those the user may delete (their own; every one on their own
 * entry). What an action did is said in the dialog: the page's notes are behind it. Loaded on
 * demand (ConversationBar). The entry's comment count follows what the thread shows.
 */
export function CommentThread({
  target,
  name,
  commentCount,
  onClose,
}: {
  target: ConversationTarget;
  name: string;
  commentCount: number;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [note, setNote] = useDialogNote();
  const key = commentsKey(target);
  const thread = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchComments(target, signal),
  });
  const [replyingTo, setReplyingTo] = useState<number | null>(null);
  const [posted, setPosted] = useState<number | null>(null);
  const remove = useMutation({
    mutationFn: (comment: Comment) => deleteComment(target, comment.id),
    onMutate: () => setNote(null),
    onSuccess: (_nothing, comment) => {
      queryClient.setQueryData<Comment[]>(key, (list) => withDeleted(list, comment.id));
      setNote({ kind: 'success', message: COMMENT_DELETED });
    },
    onError: (caught) =>
      setNote({ kind: 'error', message: messageOf(caught, DELETE_COMMENT_FAILED) }),
  });

  // The card's count says what the thread holds once it is known.
  const shown = thread.data && shownCount(thread.data);
  useEffect(() => {
    if (shown !== undefined && shown !== commentCount) {
      changeCounts(queryClient, target, () => ({ commentCount: shown }));
    }
  }, [shown, commentCount, queryClient, target]);

  const rows = useMemo(() => threadRows(thread.data ?? []), [thread.data]);
  // A reply closes its form and takes the focus; a comment leaves it in the field below.
  const add = (comment: Comment, reply: { to: string; only: boolean } | null) => {
    queryClient.setQueryData<Comment[]>(key, (list) => withPosted(list, comment));
    if (reply) {
      setReplyingTo(null);
      setPosted(comment.id);
    }
    setNote({ kind: 'success', message: postedNote(reply) });
  };
  return (
    <Dialog title="Comments" description={name} onClose={onClose}>
      <div className="comment-thread">
        {thread.isPending ? (
          <p className="list-status" role="status">
            Loading…
          </p>
        ) : thread.error ? (
          <p role="alert" className="form-error">
            {messageOf(thread.error, COMMENTS_FAILED)}
          </p>
        ) : rows.length === 0 ? (
          <p className="empty-state">{NO_COMMENTS}</p>
        ) : (
          <ol className="comment-thread__list" aria-label="Comments">
            {rows.map((row) => (
              <CommentItem
                key={row.comment.id}
                target={target}
                row={row}
                replying={replyingTo === row.comment.id}
                onReply={(open) => setReplyingTo(open ? row.comment.id : null)}
                onReplied={(reply) =>
                  add(reply, { to: authorName(row.comment), only: reply.audience === 'DIRECT' })
                }
                deleting={remove.isPending && remove.variables.id === row.comment.id}
                onDelete={() => remove.mutate(row.comment)}
                focused={posted === row.comment.id}
                onNote={setNote}
                onLeave={onClose}
                onBlocked={() => void queryClient.invalidateQueries({ queryKey: key })}
              />
            ))}
          </ol>
        )}
        {/* What the last action did; it stays in sight at the bottom of a long thread. */}
        <div className="comment-thread__note" role="status">
          {note && (
            <p
              className={note.kind === 'success' ? 'comment-thread__done' : 'form-error'}
              role={note.kind === 'error' ? 'alert' : undefined}
            >
              {note.message}
            </p>
          )}
        </div>
        <CommentForm target={target} onPosted={(comment) => add(comment, null)} />
      </div>
    </Dialog>
  );
}
