import { useId, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { Comment, CommentMention, ConversationTarget } from '../api/conversation.ts';
import { BlockButton } from '../blocks/BlockButton.tsx';
import type { DialogNote } from '../notes/dialog-note.ts';
import { formatDateTime } from '../people/dates.ts';
import { useCurrentUser } from '../session/session.tsx';
import { CommentCheer } from './CommentCheer.tsx';
import { CommentForm } from './CommentForm.tsx';
import { commentParts } from './links.ts';
import { authorName, DELETED_COMMENT } from './thread-layout.ts';
import type { ThreadRow } from './thread-layout.ts';

/** What marks a comment only its author and the people it answers may read. */
export const PRIVATE_REPLY = 'Private reply';

/**
 * A comment's text: its http(s) links clickable (to another site, in a new tab), its mentions
 * links to the person's page here, everything else plain text (never markup).
 */
export function CommentText({
  content,
  mentions,
  onLeave,
}: {
  content: string;
  mentions?: readonly CommentMention[];
  onLeave?: () => void;
}) {
  return (
    <p className="comment__content">
      {commentParts(content, mentions).map((part, index) =>
        part.kind === 'link' ? (
          <a key={index} href={part.href} target="_blank" rel="nofollow noopener noreferrer">
            {part.text}
          </a>
        ) : part.kind === 'mention' ? (
          <Link key={index} href={part.href} onClick={onLeave}>
            {part.text}
          </Link>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}

/** Who wrote a comment: a local user's name links to their profile; a remote one shows a handle. */
function Author({ comment, onLeave }: { comment: Comment; onLeave: () => void }) {
  const { username, handle } = comment.author;
  const name = authorName(comment);
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

/** 'Delete' on a comment the user may delete, asking first; `children` stand beside it. */
function DeleteAction({
  name,
  deleting,
  onDelete,
  children,
}: {
  name: string;
  deleting: boolean;
  onDelete: () => void;
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  const confirmId = useId();
  if (!confirming) {
    return (
      <div className="comment__actions">
        {children}
        <button
          type="button"
          className="button button--danger-quiet"
          onClick={() => setConfirming(true)}
          aria-label={`Delete comment by ${name}`}
        >
          Delete
        </button>
      </div>
    );
  }
  return (
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
  );
}

/**
 * One comment of the thread, indented at its level: who wrote it and when, 'Private reply' when
 * only its author and the people it answers may read it, whom it answers when the indentation
 * no longer shows it, its text, and its actions: 'Reply' (the form opens in place, under it),
 * the cheer, 'Delete' (after a confirmation) when the user may delete it, and 'Block' for
 * someone else's. A deleted comment kept for its answers shows only that it was deleted.
 */
export function CommentItem({
  target,
  row,
  replying,
  onReply,
  onReplied,
  onDelete,
  deleting,
  focused,
  onNote,
  onLeave,
  onBlocked,
}: {
  target: ConversationTarget;
  row: ThreadRow;
  /** The reply form is open under this comment. */
  replying: boolean;
  /** Opens the reply form (true) or closes it (false). */
  onReply: (open: boolean) => void;
  onReplied: (reply: Comment) => void;
  onDelete: () => void;
  deleting: boolean;
  /** Just posted: focus moves to it. */
  focused: boolean;
  /** Says what an action did, in the thread. */
  onNote: (note: DialogNote) => void;
  onLeave: () => void;
  onBlocked: () => void;
}) {
  const { comment, level, inReplyTo, beyondLevels } = row;
  const me = useCurrentUser();
  const itemRef = useRef<HTMLLIElement>(null);
  const replyButton = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (focused) itemRef.current?.focus();
  }, [focused]);

  const className = `comment comment--level-${level}${comment.deleted ? ' comment--deleted' : ''}`;
  // Whom it answers: said aloud for every answer, shown when the indentation cannot show it.
  const answers = inReplyTo && (
    <p className={beyondLevels ? 'comment__reply-to' : 'visually-hidden'}>
      in reply to {inReplyTo}
    </p>
  );
  if (comment.deleted) {
    return (
      <li className={className}>
        {answers}
        <p className="comment__deleted">{DELETED_COMMENT}</p>
      </li>
    );
  }

  const when = formatDateTime(comment.createdAt);
  const name = authorName(comment);
  const { username, handle } = comment.author;
  const mine = username !== null && username === me.username;
  const blockTarget = username
    ? mine
      ? undefined
      : { username }
    : handle
      ? { handle }
      : undefined;
  const close = () => {
    onReply(false);
    replyButton.current?.focus();
  };
  const actions = (
    <>
      <button
        ref={replyButton}
        type="button"
        className="button button--secondary comment__reply"
        aria-label={`Reply to ${name}`}
        aria-expanded={replying}
        onClick={() => onReply(!replying)}
      >
        Reply
      </button>
      <CommentCheer target={target} comment={comment} name={name} onNote={onNote} />
      {blockTarget && <BlockButton name={name} target={blockTarget} onBlocked={onBlocked} />}
    </>
  );
  return (
    <li ref={itemRef} className={className} tabIndex={-1}>
      {answers}
      <p className="comment__meta">
        <Author comment={comment} onLeave={onLeave} />
        {when && (
          <>
            {' · '}
            <time dateTime={comment.createdAt}>{when}</time>
          </>
        )}
        {comment.audience === 'DIRECT' && (
          <>
            {' · '}
            <span className="comment__private">{PRIVATE_REPLY}</span>
          </>
        )}
      </p>
      <CommentText content={comment.content} mentions={comment.mentions} onLeave={onLeave} />
      {comment.canDelete ? (
        <DeleteAction name={name} deleting={deleting} onDelete={onDelete}>
          {actions}
        </DeleteAction>
      ) : (
        <div className="comment__actions">{actions}</div>
      )}
      {replying && (
        <CommentForm
          target={target}
          replyTo={{ comment, name, canBePrivate: !mine }}
          onPosted={onReplied}
          onCancel={close}
        />
      )}
    </li>
  );
}
