import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, RefObject } from 'react';
import { startTotpSetup, verifyTotpSetup } from '../api/second-factor.ts';
import type { TotpSetupData, User } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { CheckIcon } from '../ui/icons.tsx';
import { CurrentPasswordField } from '../ui/CurrentPasswordField.tsx';
import { PanelError } from './Panel.tsx';
import { cleanTotpCode, groupSecret, isTotpCode } from './rules.ts';

export const SCAN_TO_COMPLETE = 'Scan the QR code with your authenticator app to complete setup';
export const VERIFICATION_FAILED = 'Verification failed';
export const START_FAILED = 'Failed to start the setup';
const ENTER_PASSWORD = 'Enter your current password to start: the next step shows the QR code.';

interface TotpSetupDialogProps {
  /** The setup to finish; null: the dialog asks for the password and starts one. */
  setup: TotpSetupData | null;
  /** The first code was accepted: the app is on. */
  confirmed: boolean;
  /** A setup was started (the parent then passes it as `setup`). */
  onStarted: (setup: TotpSetupData) => void;
  onVerified: (user: User) => void;
  onClose: () => void;
}

/** The first step: the current password, checked by the server as the setup starts. */
function StartStep({
  password,
  setPassword,
  passwordRef,
  onStarted,
  onClose,
}: {
  password: string;
  setPassword: (value: string) => void;
  passwordRef: RefObject<HTMLInputElement | null>;
  onStarted: (setup: TotpSetupData) => void;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      onStarted(await startTotpSetup(password));
    } catch (caught) {
      setError(messageOf(caught, START_FAILED));
      setBusy(false);
    }
  };

  return (
    <form className="stack" onSubmit={start} noValidate>
      <CurrentPasswordField
        value={password}
        onChange={setPassword}
        inputRef={passwordRef}
        disabled={busy}
      />
      <PanelError message={error} />
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Starting…' : 'Start setup'}
        </button>
      </div>
    </form>
  );
}

/** A text file of the backup codes, for the 'Download' link. */
function useBackupCodesFile(codes: string[]): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const text = `The Vault: backup codes\nEach code signs you in once.\n\n${codes.join('\n')}\n`;
    const objectUrl = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [codes]);
  return url;
}

/**
 * The authenticator setup modal: first the current password (unless a started setup is
 * continued), then the QR code, the secret in groups of 4, the otpauth link, the backup codes
 * (shown this once) and the verify step. The code field starts empty at every opening (the
 * dialog is mounted afresh).
 */
export function TotpSetupDialog({
  setup,
  confirmed,
  onStarted,
  onVerified,
  onClose,
}: TotpSetupDialogProps) {
  // Entered to start, and sent again with the code: scanning may outlast the server's minutes.
  const [password, setPassword] = useState('');
  const [continued] = useState(() => setup !== null);
  const passwordRef = useRef<HTMLInputElement>(null);
  return (
    <Dialog
      title="Set up your authenticator app"
      onClose={onClose}
      size={setup ? 'large' : 'small'}
      closeOnBackdrop={false}
      description={setup ? SCAN_TO_COMPLETE : ENTER_PASSWORD}
      initialFocus={setup ? undefined : passwordRef}
    >
      {setup ? (
        <SetupStep
          setup={setup}
          confirmed={confirmed}
          onVerified={onVerified}
          onClose={onClose}
          password={password}
          // A setup continued from the panel has no password yet: it may be asked for again.
          setPassword={continued ? setPassword : undefined}
        />
      ) : (
        <StartStep
          password={password}
          setPassword={setPassword}
          passwordRef={passwordRef}
          onStarted={onStarted}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

/** The started setup: what to scan or type, the backup codes, and the first code. */
function SetupStep({
  setup,
  confirmed,
  onVerified,
  onClose,
  password,
  setPassword,
}: {
  setup: TotpSetupData;
  confirmed: boolean;
  onVerified: (user: User) => void;
  onClose: () => void;
  password: string;
  /** Shows a 'Current password' field with the code. */
  setPassword?: (value: string) => void;
}) {
  const [code, setCode] = useState('');
  const codeRef = useRef<HTMLInputElement>(null);
  // Just started in this dialog: focus moves on from the password step to the code.
  useEffect(() => {
    if (!setPassword) codeRef.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the step appears
  }, []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const backupTitleId = useId();
  const downloadUrl = useBackupCodesFile(setup.backupCodes);
  const canVerify = isTotpCode(code) && !busy && !confirmed;

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (!canVerify) return;
    setBusy(true);
    setError(null);
    try {
      onVerified(await verifyTotpSetup(code, password));
    } catch (caught) {
      setError(messageOf(caught, VERIFICATION_FAILED));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="totp-setup">
        <div className="totp-setup__scan">
          <img
            className="totp-setup__qr"
            src={setup.qrCode}
            alt="QR code for your authenticator app"
            width={200}
            height={200}
          />
          <div className="totp-setup__manual">
            <p className="totp-setup__label">Can’t scan it? Enter this key instead:</p>
            <code className="totp-setup__secret" aria-label="Secret key">
              {groupSecret(setup.secret)}
            </code>
            <p className="totp-setup__label">On this device, open the setup link:</p>
            <a className="totp-setup__link" href={setup.otpAuthUrl}>
              Open in your authenticator app
            </a>
            <p className="field__hint">Time-based, 6 digits, every 30 seconds.</p>
          </div>
        </div>

        <section className="totp-setup__backup" aria-labelledby={backupTitleId}>
          <h3 id={backupTitleId} className="totp-setup__heading">
            Backup codes
          </h3>
          <p className="totp-setup__note">
            Save these codes somewhere safe now: they are shown only this once. Each one signs you
            in once if you lose your authenticator app.
          </p>
          <ol className="backup-codes" aria-label="Backup codes">
            {setup.backupCodes.map((backupCode) => (
              <li key={backupCode} className="backup-codes__code">
                {backupCode}
              </li>
            ))}
          </ol>
          {downloadUrl && (
            <a
              className="button button--secondary button--small"
              href={downloadUrl}
              download="vault-backup-codes.txt"
            >
              Download backup codes
            </a>
          )}
        </section>

        <form className="totp-setup__verify" onSubmit={verify} noValidate>
          <h3 className="totp-setup__heading">Verify</h3>
          {confirmed ? (
            <p role="status" className="totp-setup__confirmed">
              <CheckIcon />
              Authenticator app enabled
            </p>
          ) : (
            <p className="totp-setup__note">
              Enter the 6-digit code your app shows for the vault to finish.
            </p>
          )}
          {setPassword && !confirmed && (
            <CurrentPasswordField value={password} onChange={setPassword} disabled={busy} />
          )}
          <div className="totp-setup__verify-row">
            <Field
              label="Authentication code"
              name="code"
              inputRef={codeRef}
              value={code}
              onChange={(event) => setCode(cleanTotpCode(event.target.value))}
              inputMode="numeric"
              autoComplete="one-time-code"
              spellCheck={false}
              className="field--code"
              disabled={confirmed}
            />
            <button type="submit" className="button button--primary" disabled={!canVerify}>
              {busy ? 'Verifying…' : confirmed ? 'Verified' : 'Verify'}
            </button>
          </div>
          <PanelError message={error} />
        </form>
      </div>
      <div className="dialog__actions">
        <button
          type="button"
          className={`button ${confirmed ? 'button--primary' : 'button--secondary'}`}
          onClick={onClose}
        >
          {confirmed ? 'Done' : 'Close'}
        </button>
      </div>
    </>
  );
}
