import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { queryKeys } from '../api/query-keys.ts';
import { removeShare, shareBeverage } from '../api/social.ts';
import type { Beverage, ShareUser, UserSearchResult } from '../api/types.ts';
import { UserSearch } from '../following/UserSearch.tsx';
import { useDialogNote } from '../notes/dialog-note.ts';
import { messageOf } from '../notes/notes.tsx';
import { isAdmin } from '../session/roles.ts';
import { useCurrentUser } from '../session/session.tsx';
import { CloseIcon, TrashIcon } from '../ui/icons.tsx';
import { useVault } from '../vault/VaultProvider.tsx';
import './sharing.css';

export const INVITATION_SENT = 'Invitation sent';
export const SHARE_REMOVED = 'Share removed';
export const CANNOT_SHARE_WITH_OWNER = 'This entry cannot be shared with its owner.';
export const alreadySharedWith = (user: Pick<ShareUser, 'fullName' | 'username'>) =>
  `This entry is already shared with ${user.fullName || user.username}.`;

/** Why an entry cannot be shared with a user, or null when it can. */
export function shareRefusal(entry: Beverage, user: Pick<UserSearchResult, 'id'>): string | null {
  if (user.id === entry.userId) return CANNOT_SHARE_WITH_OWNER;
  const already = entry.sharedWith.find((share) => share.id === user.id);
  return already ? alreadySharedWith(already) : null;
}

/**
 * The edit dialog's Sharing panel (owner or admin only): choose a user of this vault (the same
 * search as '+ Follow'), add an optional message and send the invitation; the people the entry
 * is shared with, each removable. Sharing with the owner or with someone already in the list
 * is refused here, before anything is sent.
 */
export function SharingPanel({
  entry,
  onSaved,
}: {
  entry: Beverage;
  /** The entry as it now is (its sharedWith changed). */
  onSaved: (entry: Beverage) => void;
}) {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const { publish } = useVault();
  const titleId = useId();
  const messageId = useId();
  const [recipient, setRecipient] = useState<UserSearchResult | null>(null);
  const [message, setMessage] = useState('');
  const [note, setNote] = useDialogNote();

  const changed = (updated: Beverage) => {
    onSaved(updated);
    publish({ kind: 'saved', entry: updated });
    void queryClient.invalidateQueries({ queryKey: queryKeys.beverages.all });
  };

  const share = useMutation({
    mutationFn: (to: UserSearchResult) => shareBeverage(entry.id, { userId: to.id, message }),
    onSuccess: (updated) => {
      changed(updated);
      setRecipient(null);
      setMessage('');
      setNote({ kind: 'success', message: INVITATION_SENT });
    },
    onError: (caught) => setNote({ kind: 'error', message: messageOf(caught, 'Failed to share') }),
  });

  const unshare = useMutation({
    mutationFn: (share: ShareUser) => removeShare(entry.id, share.shareId),
    onSuccess: (_nothing, share) => {
      changed({
        ...entry,
        sharedWith: entry.sharedWith.filter((item) => item.shareId !== share.shareId),
      });
      setNote({ kind: 'success', message: SHARE_REMOVED });
    },
    onError: (caught) =>
      setNote({ kind: 'error', message: messageOf(caught, 'Failed to remove the share') }),
  });

  if (!entry.isOwner && !isAdmin(me)) return null;

  const choose = (user: UserSearchResult) => {
    const refusal = shareRefusal(entry, user);
    if (refusal) {
      setRecipient(null);
      setNote({ kind: 'error', message: refusal });
      return;
    }
    setNote(null);
    setRecipient(user);
  };

  const send = (event: FormEvent) => {
    event.preventDefault();
    if (!recipient || share.isPending) return;
    const refusal = shareRefusal(entry, recipient);
    if (refusal) {
      setNote({ kind: 'error', message: refusal });
      return;
    }
    share.mutate(recipient);
  };

  const busy = share.isPending || unshare.isPending;

  return (
    <section className="sharing" aria-labelledby={titleId}>
      <h3 id={titleId} className="sharing__title">
        Sharing
      </h3>
      {recipient ? (
        <form className="sharing__invite" onSubmit={send} noValidate>
          <p className="sharing__recipient">
            Share with <strong>{recipient.fullName || recipient.username}</strong>{' '}
            <span className="sharing__username">@{recipient.username}</span>
          </p>
          <div className="field">
            <label className="field__label" htmlFor={messageId}>
              Message (optional)
            </label>
            <input
              id={messageId}
              className="field__input"
              value={message}
              maxLength={280}
              onChange={(event) => setMessage(event.target.value)}
            />
          </div>
          <div className="sharing__invite-actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => setRecipient(null)}
              disabled={busy}
            >
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={busy}>
              {share.isPending ? 'Sending…' : 'Send invitation'}
            </button>
          </div>
        </form>
      ) : (
        <UserSearch
          label="Share with"
          onChoose={choose}
          busy={busy}
          tagOf={(user) =>
            user.id === entry.userId
              ? 'Owner'
              : entry.sharedWith.some((item) => item.id === user.id)
                ? 'Shared'
                : null
          }
        />
      )}
      <div className="sharing__note" aria-live="polite">
        {note && (
          <p
            className={note.kind === 'success' ? 'sharing__success' : 'form-error'}
            role={note.kind === 'error' ? 'alert' : undefined}
          >
            {note.message}
            <button
              type="button"
              className="icon-button sharing__note-close"
              aria-label="Dismiss message"
              onClick={() => setNote(null)}
            >
              <CloseIcon />
            </button>
          </p>
        )}
      </div>
      <h4 className="sharing__subtitle">Shared with</h4>
      {entry.sharedWith.length === 0 ? (
        <p className="sharing__empty">Not shared with anyone yet.</p>
      ) : (
        <ul className="sharing__list" aria-label="Shared with">
          {entry.sharedWith.map((share) => (
            <li key={share.shareId} className="sharing__item">
              <span className="sharing__who">
                <span className="sharing__name">{share.fullName || share.username}</span>
                <span className="sharing__username">@{share.username}</span>
              </span>
              <span className="tag tag--muted">
                {share.status === 'ACCEPTED' ? 'Accepted' : 'Pending'}
              </span>
              <button
                type="button"
                className="button button--danger-quiet"
                onClick={() => unshare.mutate(share)}
                disabled={busy}
                aria-label={`Remove share with ${share.fullName || share.username}`}
              >
                <TrashIcon />
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
