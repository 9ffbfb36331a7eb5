import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { loginWithTotp } from '../api/sign-in.ts';
import type { SessionGrant } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { Field } from '../ui/Field.tsx';
import './sign-in.css';

/** The first focus of the code field is delayed by 50 ms. */
export const CODE_FOCUS_DELAY_MS = 50;

type Mode = 'code' | 'backup';

/** Authenticator codes: digits only, at most 6. Backup codes: upper case, letters, digits, '-'. */
export function cleanCode(mode: Mode, raw: string): string {
  return mode === 'code'
    ? raw.replace(/\D/g, '').slice(0, 6)
    : raw.toUpperCase().replace(/[^A-Z0-9-]/g, '');
}

export function isCodeValid(mode: Mode, value: string): boolean {
  return mode === 'code' ? /^\d{6}$/.test(value) : value.trim().length >= 8;
}

interface TotpPromptProps {
  onSuccess: (grant: SessionGrant) => void;
  /** Cancel: the login form shows 'TOTP verification cancelled'. */
  onCancel: () => void;
  /** The server said yes but sent no user: the login form shows 'Login session expired'. */
  onExpired: () => void;
}

/** 'Authenticator verification': completes a pending login with a code or a backup code. */
export function TotpPrompt({ onSuccess, onCancel, onExpired }: TotpPromptProps) {
  const [mode, setMode] = useState<Mode>('code');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const valid = isCodeValid(mode, value);

  const switchMode = () => {
    setMode((current) => (current === 'code' ? 'backup' : 'code'));
    setValue('');
    setError(null);
    inputRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !valid) return;
    setBusy(true);
    setError(null);
    try {
      const grant = await loginWithTotp(mode === 'code' ? value : value.trim(), mode === 'backup');
      if (grant) onSuccess(grant);
      else onExpired();
    } catch (caught) {
      setError(messageOf(caught, 'Verification failed'));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Authenticator verification"
      onClose={onCancel}
      size="small"
      closeOnBackdrop={false}
      initialFocus={inputRef}
      initialFocusDelayMs={CODE_FOCUS_DELAY_MS}
    >
      <form className="stack" onSubmit={submit} noValidate>
        <Field
          label={mode === 'code' ? 'Authentication code' : 'Backup code'}
          inputRef={inputRef}
          value={value}
          onChange={(event) => setValue(cleanCode(mode, event.target.value))}
          inputMode={mode === 'code' ? 'numeric' : 'text'}
          autoComplete={mode === 'code' ? 'one-time-code' : 'off'}
          autoCapitalize={mode === 'code' ? 'off' : 'characters'}
          spellCheck={false}
          maxLength={mode === 'code' ? undefined : 64}
          className="field--code"
          hint={
            mode === 'code'
              ? 'The 6-digit code from your authenticator app.'
              : 'One of the backup codes you saved at setup.'
          }
        />
        <button type="button" className="button button--link" onClick={switchMode}>
          {mode === 'code' ? 'Use backup code' : 'Use authenticator code'}
        </button>
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={busy || !valid}>
            {busy ? 'Verifying…' : 'Verify and continue'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
