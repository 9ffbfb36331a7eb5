import { useEffect, useId, useState } from 'react';
import { credentialLabel, deleteCredential } from '../api/second-factor.ts';
import type { CredentialsChange } from '../api/second-factor.ts';
import type { SecurityKeyCredential } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useCurrentUser, useSession } from '../session/session.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { KeyIcon, TrashIcon } from '../ui/icons.tsx';
import { Panel, PanelError, StatusPill } from './Panel.tsx';
import { RegisterKeyDialog } from './RegisterKeyDialog.tsx';
import { formatDateTime } from './rules.ts';

export const KEY_REGISTERED = 'Security key registered';
export const KEY_REMOVED = 'Security key removed';
export const NO_KEYS = 'No security keys registered yet.';
export const REMOVE_KEY_QUESTION = 'Remove this security key?';
export const DELETE_FAILED = 'Failed to delete credential';
export const KEYS_BLOCKED_BY_TOTP =
  'Turn off the authenticator app to register a security key: only one second factor can be on at a time.';

function RemoveKeyDialog({
  credential,
  isLast,
  onCancel,
  onRemoved,
}: {
  credential: SecurityKeyCredential;
  isLast: boolean;
  onCancel: () => void;
  onRemoved: (change: CredentialsChange) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      onRemoved(await deleteCredential(credential.id));
    } catch (caught) {
      setError(messageOf(caught, DELETE_FAILED));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={REMOVE_KEY_QUESTION}
      onClose={onCancel}
      size="small"
      description={
        isLast
          ? `“${credentialLabel(credential)}” is your last security key: after this, signing in needs only your password.`
          : `“${credentialLabel(credential)}” will no longer sign you in.`
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
      <PanelError message={error} />
    </Dialog>
  );
}

/** The user's security keys: list, register (with an optional nickname) and remove. */
export function SecurityKeys() {
  const user = useCurrentUser();
  const { state, setCredentials, setUser, reloadCredentials } = useSession();
  const { notifySuccess } = useNotes();
  const [registering, setRegistering] = useState(false);
  const [removing, setRemoving] = useState<SecurityKeyCredential | null>(null);
  const [error, setError] = useState<string | null>(null);
  const blockedId = useId();

  const credentials = state.status === 'signed-in' ? state.credentials : [];
  const loaded = state.status === 'signed-in' && state.credentialsLoaded;
  const blocked = user.totpEnabled;

  // The list was loaded at sign-in; the profile page asks again so that it is current.
  useEffect(() => {
    reloadCredentials().catch((caught: unknown) =>
      setError(messageOf(caught, 'Unable to load security keys')),
    );
  }, [reloadCredentials]);

  const apply = (change: CredentialsChange) => {
    setCredentials(change.credentials);
    if (change.user) setUser(change.user);
  };

  return (
    <Panel
      title="Security keys"
      aside={<StatusPill on={credentials.length > 0} />}
      intro="A hardware key (or your device's passkey) you touch after the password to sign in."
    >
      {!loaded && !error ? (
        <p className="list-status">Loading security keys…</p>
      ) : credentials.length === 0 ? (
        <p className="empty-state">{NO_KEYS}</p>
      ) : (
        <ul className="account-list" aria-label="Registered security keys">
          {credentials.map((credential) => {
            const label = credentialLabel(credential);
            return (
              <li key={credential.id} className="account-list__item">
                <span className="account-list__icon" aria-hidden="true">
                  <KeyIcon />
                </span>
                <div className="account-list__body">
                  <p className="account-list__name">{label}</p>
                  <p className="account-list__meta">
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
                  className="button button--danger-quiet button--small"
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
      <PanelError message={error} />
      <div className="account-panel__actions account-panel__actions--start">
        <button
          type="button"
          className="button button--primary"
          onClick={() => setRegistering(true)}
          disabled={blocked}
          aria-describedby={blocked ? blockedId : undefined}
        >
          <KeyIcon />
          Register a security key
        </button>
      </div>
      {blocked && (
        <p id={blockedId} className="account-panel__blocked">
          {KEYS_BLOCKED_BY_TOTP}
        </p>
      )}

      {registering && (
        <RegisterKeyDialog
          onClose={() => setRegistering(false)}
          onRegistered={(change) => {
            apply(change);
            setRegistering(false);
            notifySuccess(KEY_REGISTERED);
          }}
        />
      )}
      {removing && (
        <RemoveKeyDialog
          credential={removing}
          isLast={credentials.length === 1}
          onCancel={() => setRemoving(null)}
          onRemoved={(change) => {
            apply(change);
            setRemoving(null);
            notifySuccess(KEY_REMOVED);
          }}
        />
      )}
    </Panel>
  );
}
