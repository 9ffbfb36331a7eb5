import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import {
  COMMENT_MAX_LENGTH,
  deleteComment,
  fetchComments,
  postComment,
} from '../api/conversation.ts';
import type { Comment, ConversationTarget } from '../api/conversation.ts';
import { messageOf } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { changeCounts, commentsKey } from './counts.ts';
import { CommentItem } from './CommentItem.tsx';

export const NO_COMMENTS = 'No comments yet.';
export const COMMENT_REQUIRED = 'Comment is required';
export const COMMENTS_FAILED = 'Unable to load comments.';
export const COMMENT_FAILED = 'The comment could not be sent';
export const DELETE_COMMENT_FAILED = 'Failed to delete comment';

/** The form under the thread: a comment of at most COMMENT_MAX_LENGTH characters. */
function CommentForm({
  target,
  onPosted,
}: {
  target: ConversationTarget;
  onPosted: (comment: Comment) => void;
}) {
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const counterId = useId();
  const errorId = useId();
  const post = useMutation({
    mutationFn: (text: string) => postComment(target, text),
    onSuccess: (comment) => {
      setContent('');
      onPosted(comment);
    },
    onError: (caught) => setError(messageOf(caught, COMMENT_FAILED)),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (post.isPending) return;
    const text = content.trim();
    if (!text) {
      setError(COMMENT_REQUIRED);
      return;
    }
    setError(null);
    post.mutate(text);
  };

  return (
    <form className="comment-form field" onSubmit={submit} noValidate>
      <label htmlFor={fieldId} className="field__label">
        Your comment
      </label>
      <textarea
        id={fieldId}
        className="field__input field__textarea"
        value={content}
        onChange={(event) => setContent(event.target.value)}
        maxLength={COMMENT_MAX_LENGTH}
        rows={3}
        aria-describedby={error ? `${counterId} ${errorId}` : counterId}
        aria-invalid={error ? true : undefined}
      />
      <div className="comment-form__footer">
        <span id={counterId} className="comment-form__counter">
          {content.length.toLocaleString('en')} / {COMMENT_MAX_LENGTH.toLocaleString('en')}
          <span className="visually-hidden"> characters</span>
        </span>
        <button type="submit" className="button button--primary" aria-busy={post.isPending}>
          {post.isPending ? 'Sending…' : 'Comment'}
        </button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="form-error">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * The thread under an entry, in a dialog: its comments oldest first, the form to add one, and
 * 'Delete' on those the user may delete (their own; every one on their own entry). Loaded on
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
  const key = commentsKey(target);
  const thread = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchComments(target, signal),
  });
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (comment: Comment) => deleteComment(target, comment.id),
    onMutate: () => setDeleteError(null),
    onSuccess: (_nothing, comment) =>
      queryClient.setQueryData<Comment[]>(key, (list) =>
        list?.filter((item) => item.id !== comment.id),
      ),
    onError: (caught) => setDeleteError(messageOf(caught, DELETE_COMMENT_FAILED)),
  });

  // The card's count says what the thread holds once it is known.
  const shown = thread.data?.length;
  useEffect(() => {
    if (shown !== undefined && shown !== commentCount) {
      changeCounts(queryClient, target, () => ({ commentCount: shown }));
    }
  }, [shown, commentCount, queryClient, target]);

  const comments = thread.data ?? [];
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
        ) : comments.length === 0 ? (
          <p className="empty-state">{NO_COMMENTS}</p>
        ) : (
          <ol className="comment-thread__list" aria-label="Comments">
            {comments.map((comment) => (
              <CommentItem
                key={comment.id}
                comment={comment}
                deleting={remove.isPending && remove.variables.id === comment.id}
                onDelete={() => remove.mutate(comment)}
                onLeave={onClose}
                onBlocked={() => void queryClient.invalidateQueries({ queryKey: key })}
              />
            ))}
          </ol>
        )}
        {deleteError && (
          <p role="alert" className="form-error">
            {deleteError}
          </p>
        )}
        <CommentForm
          target={target}
          onPosted={(comment) =>
            queryClient.setQueryData<Comment[]>(key, (list) => [
              ...(list ?? []).filter((item) => item.id !== comment.id),
              comment,
            ])
          }
        />
      </div>
    </Dialog>
  );
}
