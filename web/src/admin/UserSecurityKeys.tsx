import { useEffect, useId, useState } from 'react';
import { deleteUserCredential, fetchUserCredentials } from '../api/admin.ts';
import { credentialLabel } from '../api/second-factor.ts';
import type { SecurityKeyCredential, User } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { KeyIcon, TrashIcon } from '../ui/icons.tsx';
import { formatDateTime } from '../people/dates.ts';

export const NO_KEYS = 'No security keys registered yet.';
export const REMOVE_KEY_QUESTION = 'Remove this security key?';
export const KEY_REMOVED = 'Security key removed';
export const DELETE_FAILED = 'Failed to delete credential';
const KEYS_LOAD_FAILED = 'Unable to load security keys';

type KeysState =
  | { status: 'loading' }
  | { status: 'ready'; credentials: SecurityKeyCredential[] }
  | { status: 'error'; message: string };

function RemoveKeyDialog({
  credential,
  username,
  isLast,
  onCancel,
  onRemoved,
  onFailed,
}: {
  credential: SecurityKeyCredential;
  username: string;
  isLast: boolean;
  onCancel: () => void;
  onRemoved: (result: Awaited<ReturnType<typeof deleteUserCredential>>) => void;
  /** The removal was refused (the key may be gone already): the list is asked for again. */
  onFailed: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = credentialLabel(credential);

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      onRemoved(await deleteUserCredential(credential.id));
    } catch (caught) {
      console.warn(DELETE_FAILED, messageOf(caught, ''));
      setError(DELETE_FAILED);
      setBusy(false);
      onFailed();
    }
  };

  return (
    <Dialog
      title={REMOVE_KEY_QUESTION}
      onClose={onCancel}
      size="small"
      description={
        isLast
          ? `“${label}” is the last security key of ${username}: after this, they sign in with their password alone.`
          : `“${label}” will no longer sign ${username} in.`
      }
      footer={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={() => void remove()}
            disabled={busy}
          >
            {busy ? 'Removing…' : 'Remove'}
          </button>
        </>
      }
    >
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
    </Dialog>
  );
}

/**
 * A user's security keys as the admin sees them (GET /webauthn/admin/users/{id}/credentials):
 * label, added, last used, and a Remove button that asks first.
 */
export function UserSecurityKeys({
  user,
  onUserChanged,
  onKeysChanged,
}: {
  user: User;
  onUserChanged: (user: User) => void;
  /** The keys after a removal (to keep the session's own list current when it is the admin's). */
  onKeysChanged?: (credentials: SecurityKeyCredential[]) => void;
}) {
  const titleId = useId();
  const { notifySuccess } = useNotes();
  const [state, setState] = useState<KeysState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [removing, setRemoving] = useState<SecurityKeyCredential | null>(null);

  useEffect(() => {
    let active = true;
    fetchUserCredentials(user.id).then(
      (credentials) => active && setState({ status: 'ready', credentials }),
      (caught: unknown) =>
        active && setState({ status: 'error', message: messageOf(caught, KEYS_LOAD_FAILED) }),
    );
    return () => {
      active = false;
    };
  }, [user.id, attempt]);

  const credentials = state.status === 'ready' ? state.credentials : [];

  return (
    <section className="admin-keys" aria-labelledby={titleId}>
      <h3 id={titleId} className="admin-subtitle">
        Security keys
      </h3>
      {state.status === 'loading' && (
        <p className="list-status" role="status">
          Loading security keys…
        </p>
      )}
      {state.status === 'error' && (
        <div className="list-error">
          <p role="alert" className="form-error">
            {state.message}
          </p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setState({ status: 'loading' });
              setAttempt((count) => count + 1);
            }}
          >
            Try again
          </button>
        </div>
      )}
      {state.status === 'ready' && credentials.length === 0 && (
        <p className="empty-state admin-keys__empty">{NO_KEYS}</p>
      )}
      {state.status === 'ready' && credentials.length > 0 && (
        <ul className="admin-keys__list" aria-label={`Security keys of ${user.username}`}>
          {credentials.map((credential) => {
            const label = credentialLabel(credential);
            return (
              <li key={credential.id} className="admin-keys__item">
                <span className="admin-keys__icon" aria-hidden="true">
                  <KeyIcon />
                </span>
                <div className="admin-keys__body">
                  <p className="admin-keys__name">{label}</p>
                  <p className="admin-keys__meta">
                    <span>Added {formatDateTime(credential.createdAt)}</span>
                    <span>
                      {credential.lastUsedAt
                        ? `Last used ${formatDateTime(credential.lastUsedAt)}`
                        : 'Never used'}
                    </span>
                  </p>
                </div>
                <button
                  type="button"
                  className="button button--danger-quiet admin-button--small"
                  onClick={() => setRemoving(credential)}
                  aria-label={`Remove ${label}`}
                >
                  <TrashIcon />
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}

      {removing && (
        <RemoveKeyDialog
          credential={removing}
          username={user.username}
          isLast={credentials.length === 1}
          onCancel={() => setRemoving(null)}
          onFailed={() => setAttempt((count) => count + 1)}
          onRemoved={(result) => {
            setState({ status: 'ready', credentials: result.credentials });
            setRemoving(null);
            // Removing the last key turns the security key off (SPEC section 4).
            onUserChanged(
              result.user ??
                (result.credentials.length === 0 ? { ...user, webauthnEnabled: false } : user),
            );
            onKeysChanged?.(result.credentials);
            notifySuccess(KEY_REMOVED);
          }}
        />
      )}
    </section>
  );
}
