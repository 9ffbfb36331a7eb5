import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { COMMENT_MAX_LENGTH, postComment } from '../api/conversation.ts';
import type { Comment, ConversationTarget } from '../api/conversation.ts';
import { messageOf } from '../notes/notes.tsx';

export const COMMENT_REQUIRED = 'Comment is required';
export const COMMENT_FAILED = 'The comment could not be sent';

/** The comment a reply answers, and its author's name as the thread shows it. */
export interface ReplyTo {
  comment: Comment;
  name: string;
  /** Whether 'Only {name}' is offered: not when answering oneself. */
  canBePrivate: boolean;
}

/**
 * A comment of at most COMMENT_MAX_LENGTH characters: under the thread ('Your comment'), or in
 * place under the comment it answers ('Reply to {name}', with 'Only {name}' for a private reply,
 * and Cancel or Escape to close it).
 */
export function CommentForm({
  target,
  replyTo,
  onPosted,
  onCancel,
}: {
  target: ConversationTarget;
  replyTo?: ReplyTo;
  onPosted: (comment: Comment) => void;
  onCancel?: () => void;
}) {
  const [content, setContent] = useState('');
  const [only, setOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const counterId = useId();
  const errorId = useId();
  const post = useMutation({
    mutationFn: (text: string) =>
      postComment(
        target,
        replyTo
          ? { content: text, inReplyTo: replyTo.comment.id, ...(only ? { private: true } : {}) }
          : { content: text },
      ),
    onSuccess: (comment) => {
      setContent('');
      setOnly(false);
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

  // Escape closes the reply, not the thread's dialog (which skips a key already handled).
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key !== 'Escape' || !onCancel) return;
    event.preventDefault();
    onCancel();
  };

  return (
    <form
      className={`comment-form field${replyTo ? ' comment-form--reply' : ''}`}
      onSubmit={submit}
      onKeyDown={onKeyDown}
      noValidate
    >
      <label htmlFor={fieldId} className="field__label">
        {replyTo ? `Reply to ${replyTo.name}` : 'Your comment'}
      </label>
      <textarea
        id={fieldId}
        className="field__input field__textarea"
        value={content}
        onChange={(event) => setContent(event.target.value)}
        maxLength={COMMENT_MAX_LENGTH}
        rows={3}
        // A reply is asked for by one action: its field is where the writing starts.
        autoFocus={!!replyTo}
        aria-describedby={error ? `${counterId} ${errorId}` : counterId}
        aria-invalid={error ? true : undefined}
      />
      {replyTo?.canBePrivate && (
        <label className="comment-form__only">
          <input
            type="checkbox"
            checked={only}
            onChange={(event) => setOnly(event.target.checked)}
          />
          Only {replyTo.name}
        </label>
      )}
      <div className="comment-form__footer">
        <span id={counterId} className="comment-form__counter">
          {content.length.toLocaleString('en')} / {COMMENT_MAX_LENGTH.toLocaleString('en')}
          <span className="visually-hidden"> characters</span>
        </span>
        <div className="comment-form__buttons">
          {onCancel && (
            <button type="button" className="button button--secondary" onClick={onCancel}>
              Cancel
            </button>
          )}
          <button type="submit" className="button button--primary" aria-busy={post.isPending}>
            {post.isPending ? 'Sending…' : replyTo ? 'Send reply' : 'Comment'}
          </button>
        </div>
      </div>
      {error && (
        <p id={errorId} role="alert" className="form-error">
          {error}
        </p>
      )}
    </form>
  );
}
