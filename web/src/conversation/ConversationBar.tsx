import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Suspense, useId, useState } from 'react';
import { setCheer } from '../api/conversation.ts';
import type { ConversationCounts, ConversationTarget } from '../api/conversation.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import { afterCheer, changeCounts } from './counts.ts';
import './conversation.css';

// The thread (and its form) is fetched when someone first opens it, or points at its button.
const CommentThread = lazyNamed(() => import('./CommentThread.tsx'), 'CommentThread');

export const CHEER_FAILED = 'The cheer could not be sent';

/**
 * Cheers an entry or takes the cheer back. The cached copies of the entry change at once and
 * take the server's counts when it answers (or go back, with a note, when it refuses); clicks
 * on one entry are sent in order, so the last one decides.
 */
function useCheer(target: ConversationTarget) {
  const queryClient = useQueryClient();
  const { notifyError } = useNotes();
  return useMutation({
    scope: { id: `cheer:${target.kind}:${target.id}` },
    mutationFn: (cheered: boolean) => setCheer(target, cheered),
    onMutate: (cheered) =>
      changeCounts(queryClient, target, (counts) => afterCheer(counts, cheered)),
    onSuccess: (counts) => changeCounts(queryClient, target, () => counts),
    onError: (caught, cheered) => {
      changeCounts(queryClient, target, (counts) => afterCheer(counts, !cheered));
      notifyError(messageOf(caught, CHEER_FAILED));
    },
  });
}

/**
 * The conversation under an entry's card: the cheer toggle ('🥂 3', pressed once the user
 * cheered) and the comment count, which opens the thread.
 */
export function ConversationBar({
  target,
  name,
  counts,
}: {
  target: ConversationTarget;
  /** The entry's name, for the buttons' accessible names. */
  name: string;
  counts: ConversationCounts;
}) {
  const cheer = useCheer(target);
  const [open, setOpen] = useState(false);
  const cheersId = useId();
  const commentsId = useId();
  return (
    <div className="conversation-bar">
      <button
        type="button"
        className={`chip-button conversation-bar__cheer${counts.cheeredByMe ? ' is-cheered' : ''}`}
        aria-pressed={counts.cheeredByMe}
        aria-label={`Cheer: ${name}`}
        aria-describedby={cheersId}
        onClick={() => cheer.mutate(!counts.cheeredByMe)}
      >
        <span aria-hidden="true">🥂</span>
        <span id={cheersId} className="conversation-bar__count">
          {counts.cheerCount}
          <span className="visually-hidden">{counts.cheerCount === 1 ? ' cheer' : ' cheers'}</span>
        </span>
      </button>
      <button
        type="button"
        className="chip-button"
        aria-label={`Comments: ${name}`}
        aria-describedby={commentsId}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        onPointerEnter={CommentThread.preload}
        onFocus={CommentThread.preload}
      >
        <span aria-hidden="true">💬</span>
        <span id={commentsId} className="conversation-bar__count">
          {counts.commentCount}
          <span className="visually-hidden">
            {counts.commentCount === 1 ? ' comment' : ' comments'}
          </span>
        </span>
      </button>
      {open && (
        <Suspense fallback={<DialogLoading />}>
          <CommentThread
            target={target}
            name={name}
            commentCount={counts.commentCount}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
