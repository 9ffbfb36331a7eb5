import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'wouter';
import {
  COMMENT_MAX_LENGTH,
  deleteComment,
  fetchComments,
  postComment,
} from '../api/conversation.ts';
import type { Comment, ConversationTarget } from '../api/conversation.ts';
import { BlockButton } from '../blocks/BlockButton.tsx';
import { messageOf } from '../notes/notes.tsx';
import { useCurrentUser } from '../session/session.tsx';
import { formatDateTime } from '../people/dates.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { changeCounts, commentsKey } from './counts.ts';
import { commentParts } from './links.ts';

export const NO_COMMENTS = 'No comments yet.';
export const COMMENT_REQUIRED = 'Comment is required';
export const COMMENTS_FAILED = 'Unable to load comments.';
export const COMMENT_FAILED = 'The comment could not be sent';
export const DELETE_COMMENT_FAILED = 'Failed to delete comment';

/** A comment's text: its http(s) links clickable, everything else plain text (never markup). */
export function CommentText({ content }: { content: string }) {
  return (
    <p className="comment__content">
      {commentParts(content).map((part, index) =>
        part.kind === 'link' ? (
          <a key={index} href={part.href} target="_blank" rel="nofollow noopener noreferrer">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}

/** Who wrote a comment: a local user's name links to their profile; a remote one shows a handle. */
function Author({ comment, onLeave }: { comment: Comment; onLeave: () => void }) {
  const { fullName, username, handle } = comment.author;
  const name = fullName || username || handle || 'Someone';
  if (username) {
    return (
      <Link
        href={`/users/${encodeURIComponent(username)}`}
        className="comment__author"
        onClick={onLeave}
      >
        {name}
      </Link>
    );
  }
  return (
    <>
      <span className="comment__author">{name}</span>
      {handle && handle !== name && <span className="comment__handle"> {handle}</span>}
    </>
  );
}

/**
 * One comment, with 'Delete' (after a confirmation) when the user may delete it, and 'Block'
 * for someone else's (after the block dialog; their comments then leave the thread).
 */
function CommentItem({
  comment,
  onDelete,
  deleting,
  onLeave,
  onBlocked,
}: {
  comment: Comment;
  onDelete: () => void;
  deleting: boolean;
  onLeave: () => void;
  onBlocked: () => void;
}) {
  const me = useCurrentUser();
  const [confirming, setConfirming] = useState(false);
  const confirmId = useId();
  const when = formatDateTime(comment.createdAt);
  const by = comment.author.fullName || comment.author.username || comment.author.handle || '';
  const { username, handle } = comment.author;
  const blockTarget = username
    ? username === me.username
      ? undefined
      : { username }
    : handle
      ? { handle }
      : undefined;
  const block = blockTarget && !confirming && (
    <BlockButton name={by || 'this person'} target={blockTarget} onBlocked={onBlocked} />
  );
  return (
    <li className="comment">
      <p className="comment__meta">
        <Author comment={comment} onLeave={onLeave} />
        {when && (
          <>
            {' · '}
            <time dateTime={comment.createdAt}>{when}</time>
          </>
        )}
      </p>
      <CommentText content={comment.content} />
      {!comment.canDelete && block && <div className="comment__actions">{block}</div>}
      {comment.canDelete &&
        (confirming ? (
          <div className="comment__actions" role="group" aria-label="Confirm the deletion">
            <p id={confirmId} className="comment__confirm">
              Delete this comment? This cannot be undone.
            </p>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setConfirming(false)}
              disabled={deleting}
            >
              Cancel
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={onDelete}
              disabled={deleting}
              aria-describedby={confirmId}
            >
              {deleting ? 'Deleting…' : 'Yes, delete'}
            </button>
          </div>
        ) : (
          <div className="comment__actions">
            <button
              type="button"
              className="button button--danger-quiet"
              onClick={() => setConfirming(true)}
              aria-label={by ? `Delete comment by ${by}` : 'Delete comment'}
            >
              Delete
            </button>
            {block}
          </div>
        ))}
    </li>
  );
}

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
