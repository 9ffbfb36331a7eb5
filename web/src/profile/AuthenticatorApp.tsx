import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { disableTotp } from '../api/second-factor.ts';
import type { TotpSetupData, User } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useCurrentUser, useSession } from '../session/session.tsx';
import { Field } from '../ui/Field.tsx';
import { Panel, PanelError, StatusPill } from './Panel.tsx';
import { cleanTotpCode, disableTotpError } from './rules.ts';
import { SCAN_TO_COMPLETE, TotpSetupDialog } from './TotpSetupDialog.tsx';

export const TOTP_ENABLED = 'Authenticator app enabled';
export const TOTP_DISABLED = 'Authenticator app disabled';
export const DISABLE_FAILED = 'Failed to disable TOTP';
export const TOTP_BLOCKED_BY_KEYS =
  'Remove your security keys to set up an authenticator app: only one second factor can be on at a time.';

/** Password and a current code turn the authenticator app off. */
function DisableTotpForm() {
  const { setUser } = useSession();
  const { notifySuccess } = useNotes();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = disableTotpError(password, code);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      const user = await disableTotp(code, password);
      notifySuccess(TOTP_DISABLED);
      setUser(user);
    } catch (caught) {
      setError(messageOf(caught, DISABLE_FAILED));
      setBusy(false);
    }
  };

  return (
    <form className="stack totp-disable" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <h3 id={titleId} className="account-panel__subtitle">
        Turn off the authenticator app
      </h3>
      <div className="totp-disable__fields">
        <Field
          label="Password"
          type="password"
          name="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          autoComplete="current-password"
        />
        <Field
          label="Authentication code"
          name="code"
          value={code}
          onChange={(event) => setCode(cleanTotpCode(event.target.value))}
          inputMode="numeric"
          autoComplete="one-time-code"
          spellCheck={false}
          className="field--code field--code-small"
        />
      </div>
      <PanelError message={error} />
      <div className="account-panel__actions">
        <button type="submit" className="button button--danger" disabled={busy}>
          {busy ? 'Turning off…' : 'Turn off'}
        </button>
      </div>
    </form>
  );
}

/** The authenticator app: setup (blocked while a security key exists) and turning it off. */
export function AuthenticatorApp() {
  const user = useCurrentUser();
  const { state, setUser } = useSession();
  const { notifySuccess } = useNotes();
  const [setup, setSetup] = useState<TotpSetupData | null>(null);
  /** The dialog: 'start' asks for the password and starts a setup, 'setup' shows `setup`. */
  const [open, setOpen] = useState<'start' | 'setup' | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const blockedId = useId();

  const hasKeys =
    user.webauthnEnabled || (state.status === 'signed-in' && state.credentials.length > 0);

  const started = (data: TotpSetupData) => {
    setSetup(data);
    setConfirmed(false);
    setOpen('setup');
    notifySuccess(SCAN_TO_COMPLETE);
  };

  const verified = (changed: User) => {
    setConfirmed(true);
    setUser(changed);
    notifySuccess(TOTP_ENABLED);
  };

  const close = () => {
    setOpen(null);
    // Once confirmed, the secret and the backup codes are never shown again.
    if (confirmed) setSetup(null);
  };

  // A setup left open cannot be finished while a security key exists (the server refuses it).
  const pendingSetup = setup !== null && !confirmed && !user.totpEnabled && !hasKeys;

  return (
    <Panel
      title="Authenticator app"
      aside={<StatusPill on={user.totpEnabled} />}
      intro="A 6-digit code from an app such as Aegis, 2FAS or Google Authenticator after the password, with backup codes for when the phone is lost."
    >
      {user.totpEnabled ? (
        <>
          <p className="account-panel__muted">
            Signing in asks for a code from your authenticator app, or one of your backup codes.
          </p>
          <DisableTotpForm />
        </>
      ) : (
        <>
          {pendingSetup && (
            <p className="account-panel__muted">
              Setup is not finished: verify a code from your app to turn it on.
            </p>
          )}
          <div className="account-panel__actions account-panel__actions--start">
            {pendingSetup ? (
              <>
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => setOpen('setup')}
                >
                  Continue setup
                </button>
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => setOpen('start')}
                  disabled={hasKeys}
                >
                  Start over
                </button>
              </>
            ) : (
              <button
                type="button"
                className="button button--primary"
                onClick={() => setOpen('start')}
                disabled={hasKeys}
                aria-describedby={hasKeys ? blockedId : undefined}
              >
                Set up authenticator app
              </button>
            )}
          </div>
          {hasKeys && (
            <p id={blockedId} className="account-panel__blocked">
              {TOTP_BLOCKED_BY_KEYS}
            </p>
          )}
        </>
      )}

      {open && (
        <TotpSetupDialog
          setup={open === 'setup' ? setup : null}
          confirmed={confirmed}
          onStarted={started}
          onVerified={verified}
          onClose={close}
        />
      )}
    </Panel>
  );
}
