import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import {
  WebAuthnAbortService,
  browserSupportsWebAuthn,
  startRegistration,
} from '@simplewebauthn/browser';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { registrationOptions, verifyRegistration } from '../api/second-factor.ts';
import type { CredentialsChange } from '../api/second-factor.ts';
import { messageOf } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import { KeyIcon } from '../ui/icons.tsx';
import { CurrentPasswordField } from '../ui/CurrentPasswordField.tsx';
import { PanelError } from './Panel.tsx';

export const WEBAUTHN_UNSUPPORTED = 'WebAuthn is not supported in this browser';
export const REGISTRATION_NOT_COMPLETED = 'Registration was not completed';
/** The server's limit for a nickname. */
const NICKNAME_MAX_LENGTH = 64;

interface RegisterKeyDialogProps {
  onClose: () => void;
  onRegistered: (change: CredentialsChange) => void;
}

/**
 * 'Register security key': an optional nickname and the current password (checked by the server
 * before the key is asked for), then the browser's registration ceremony.
 */
export function RegisterKeyDialog({ onClose, onRegistered }: RegisterKeyDialogProps) {
  const [nickname, setNickname] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nicknameRef = useRef<HTMLInputElement>(null);
  const [supported] = useState(() => browserSupportsWebAuthn());
  const open = useRef(true);

  useEffect(() => {
    open.current = true;
    return () => {
      open.current = false;
      WebAuthnAbortService.cancelCeremony();
    };
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!supported) {
      setError(WEBAUTHN_UNSUPPORTED);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const options = await registrationOptions(password);
      const result = await startRegistration({
        optionsJSON: options as PublicKeyCredentialCreationOptionsJSON,
      });
      if (!open.current) return;
      if (!result) {
        setError(REGISTRATION_NOT_COMPLETED);
        return;
      }
      const change = await verifyRegistration(result, nickname.trim() || null, password);
      if (!open.current) return;
      onRegistered(change);
    } catch (caught) {
      // The browser library's own message for a cancelled or refused ceremony.
      if (open.current) setError(messageOf(caught, REGISTRATION_NOT_COMPLETED));
    } finally {
      if (open.current) setBusy(false);
    }
  };

  const close = () => {
    WebAuthnAbortService.cancelCeremony();
    onClose();
  };

  return (
    <Dialog
      title="Register security key"
      onClose={close}
      size="small"
      closeOnBackdrop={!busy}
      initialFocus={nicknameRef}
      description="Plug in your key or hold it near the device, then touch it when your browser asks."
    >
      <form className="stack" onSubmit={submit} noValidate>
        <Field
          label="Nickname (optional)"
          name="nickname"
          inputRef={nicknameRef}
          value={nickname}
          onChange={(event) => setNickname(event.target.value)}
          maxLength={NICKNAME_MAX_LENGTH}
          autoComplete="off"
          placeholder="e.g. Blue key on my keyring"
          hint="Helps you tell your keys apart. Left blank, the key is named by its id."
          disabled={busy}
        />
        <CurrentPasswordField value={password} onChange={setPassword} disabled={busy} />
        {busy && (
          <p role="status" className="register-key__waiting">
            <span className="register-key__icon" aria-hidden="true">
              <KeyIcon />
            </span>
            Waiting for security key...
          </p>
        )}
        <PanelError message={supported ? error : WEBAUTHN_UNSUPPORTED} />
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy || !supported}>
            {busy ? 'Registering…' : 'Register key'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
