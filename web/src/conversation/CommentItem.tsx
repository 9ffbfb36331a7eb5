import { useId, useState } from 'react';
import { Link } from 'wouter';
import type { Comment } from '../api/conversation.ts';
import { BlockButton } from '../blocks/BlockButton.tsx';
import { formatDateTime } from '../people/dates.ts';
import { useCurrentUser } from '../session/session.tsx';
import { commentParts } from './links.ts';

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
export function CommentItem({
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
