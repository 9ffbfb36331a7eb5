import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
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
 * cheered; named 'Cheer: {entry}, 3 cheers') and the comment count ('💬 2', named
 * 'Comments: {entry}, 2 comments'), which opens the thread.
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
  const { cheerCount, cheeredByMe, commentCount } = counts;
  // The count shown is part of each name (what one sees is what one says to speech input).
  return (
    <div className="conversation-bar">
      <button
        type="button"
        className={`chip-button conversation-bar__cheer${cheeredByMe ? ' is-cheered' : ''}`}
        aria-pressed={cheeredByMe}
        aria-label={`Cheer: ${name}, ${cheerCount} ${cheerCount === 1 ? 'cheer' : 'cheers'}`}
        onClick={() => cheer.mutate(!cheeredByMe)}
      >
        <span aria-hidden="true">🥂</span>
        <span className="conversation-bar__count">{cheerCount}</span>
      </button>
      <button
        type="button"
        className="chip-button"
        aria-label={`Comments: ${name}, ${commentCount} ${commentCount === 1 ? 'comment' : 'comments'}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        onPointerEnter={CommentThread.preload}
        onFocus={CommentThread.preload}
      >
        <span aria-hidden="true">💬</span>
        <span className="conversation-bar__count">{commentCount}</span>
      </button>
      {open && (
        <Suspense fallback={<DialogLoading />}>
          <CommentThread
            target={target}
            name={name}
            commentCount={commentCount}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
