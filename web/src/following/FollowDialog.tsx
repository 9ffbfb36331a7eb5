import { useRef, useState } from 'react';
import type { UserSearchResult } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { FOLLOW_FAILED, useFollow, useFollowStates } from './follows.ts';
import { followRequested } from './remote-api.ts';
import { RemoteLookup } from './RemoteLookup.tsx';
import { UserSearch } from './UserSearch.tsx';

export const FOLLOW_DIALOG_TITLE = 'Follow someone';

/**
 * '+ Follow': search the vault's users and choose one to follow them (or ask to, when they
 * approve followers), or look up a fediverse account by handle or address and follow it. Users
 * already followed are marked 'Following', those asked 'Requested', and cannot be chosen
 * again. Choosing closes the dialog.
 */
export function FollowDialog({ onClose }: { onClose: () => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const follow = useFollow();
  const states = useFollowStates();
  const { notifySuccess } = useNotes();
  const [error, setError] = useState<string | null>(null);

  const tagOf = (user: UserSearchResult) => {
    const state = states.get(user.id);
    if (state === 'ACCEPTED' || (state === undefined && user.following)) return 'Following';
    if (state === 'PENDING' || user.requested) return 'Requested';
    return null;
  };
  const isFollowed = (user: UserSearchResult) => tagOf(user) !== null;

  const choose = (user: UserSearchResult) => {
    setError(null);
    follow.mutate(user, {
      onSuccess: onClose,
      onError: (caught) => setError(messageOf(caught, FOLLOW_FAILED)),
    });
  };

  return (
    <Dialog
      title={FOLLOW_DIALOG_TITLE}
      description="Find people in this vault by name or username, or a fediverse account by its handle."
      onClose={onClose}
      initialFocus={inputRef}
    >
      <UserSearch
        label="Search users"
        inputRef={inputRef}
        onChoose={choose}
        busy={follow.isPending}
        tagOf={tagOf}
        isUnavailable={isFollowed}
      >
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </UserSearch>
      <RemoteLookup
        onFollowed={(actor) => {
          notifySuccess(followRequested(actor));
          onClose();
        }}
      />
    </Dialog>
  );
}
