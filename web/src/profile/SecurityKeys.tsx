import { Suspense, useEffect, useId, useState } from 'react';
import { credentialLabel, deleteCredential } from '../api/second-factor.ts';
import type { CredentialsChange } from '../api/second-factor.ts';
import type { SecurityKeyCredential } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useCurrentUser, useSession } from '../session/session.tsx';
import { KeyIcon } from '../ui/icons.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import {
  DELETE_FAILED,
  KEY_REMOVED,
  RemoveKeyDialog,
  SecurityKeyList,
} from '../ui/SecurityKeyList.tsx';
import { Panel, PanelError, StatusPill } from './Panel.tsx';

// With the WebAuthn browser library, fetched when the dialog first opens.
const RegisterKeyDialog = lazyNamed(() => import('./RegisterKeyDialog.tsx'), 'RegisterKeyDialog');

export const KEY_REGISTERED = 'Security key registered';
export const KEYS_BLOCKED_BY_TOTP =
  'Turn off the authenticator app to register a security key: only one second factor can be on at a time.';

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
      ) : (
        <SecurityKeyList
          credentials={credentials}
          listLabel="Registered security keys"
          listClassName="account-list"
          block="account-list"
          emptyClassName="empty-state"
          smallButtonClassName="button--small"
          onRemove={setRemoving}
        />
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
        <Suspense fallback={<DialogLoading />}>
          <RegisterKeyDialog
            onClose={() => setRegistering(false)}
            onRegistered={(change) => {
              apply(change);
              setRegistering(false);
              notifySuccess(KEY_REGISTERED);
            }}
          />
        </Suspense>
      )}
      {removing && (
        <RemoveKeyDialog
          description={
            credentials.length === 1
              ? `“${credentialLabel(removing)}” is your last security key: after this, signing in needs only your password.`
              : `“${credentialLabel(removing)}” will no longer sign you in.`
          }
          onCancel={() => setRemoving(null)}
          askPassword
          onRemove={async (password) => {
            apply(await deleteCredential(removing.id, password));
            setRemoving(null);
            notifySuccess(KEY_REMOVED);
          }}
          failureMessage={(caught) => messageOf(caught, DELETE_FAILED)}
        />
      )}
    </Panel>
  );
}
