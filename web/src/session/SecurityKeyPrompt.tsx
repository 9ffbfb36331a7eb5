import { useEffect, useRef, useState } from 'react';
import type * as WebAuthnBrowser from '@simplewebauthn/browser';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { verifySecurityKeyLogin } from '../api/sign-in.ts';
import type { AuthenticationOptions, SessionGrant } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { Dialog } from '../ui/Dialog.tsx';
import { KeyIcon } from '../ui/icons.tsx';
import './sign-in.css';

export const KEY_CANCELLED = 'Security key verification was cancelled';
const DEFAULT_ERROR = 'Verification failed. Try again.';

type KeyState = 'idle' | 'pending' | 'success' | 'error';

interface SecurityKeyPromptProps {
  /** The `options` of the requiresWebAuthn login answer. */
  options: AuthenticationOptions;
  onSuccess: (grant: SessionGrant) => void;
  /** Closes the prompt; the message explains why, for the login form to show. */
  onCancel: (message: string) => void;
  /** Closes the prompt and hands back to the password form. */
  onUsePassword: () => void;
}

/** 'Use your security key': runs the assertion ceremony and completes the pending login. */
export function SecurityKeyPrompt({
  options,
  onSuccess,
  onCancel,
  onUsePassword,
}: SecurityKeyPromptProps) {
  const [state, setState] = useState<KeyState>('idle');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  /** The browser library, fetched when the first ceremony starts (it is not needed before). */
  const webauthnRef = useRef<typeof WebAuthnBrowser | null>(null);

  useEffect(() => {
    let cancelled = false;
    const fail = (message: string) => {
      if (cancelled) return;
      setError(message);
      setState('error');
    };
    setError(null);
    setState('pending');
    (async () => {
      try {
        const webauthn = (webauthnRef.current ??= await import('@simplewebauthn/browser'));
        if (cancelled) return;
        if (!webauthn.browserSupportsWebAuthn()) {
          fail('WebAuthn is not supported in this browser');
          return;
        }
        const assertion = await webauthn.startAuthentication({
          optionsJSON: options as PublicKeyCredentialRequestOptionsJSON,
        });
        if (cancelled) return;
        if (!assertion) {
          onCancel(KEY_CANCELLED);
          return;
        }
        const grant = await verifySecurityKeyLogin(assertion);
        if (cancelled) return;
        if (!grant) {
          fail('Authentication was not completed');
          return;
        }
        setState('success');
        onSuccess(grant);
      } catch (caught) {
        fail(messageOf(caught, DEFAULT_ERROR));
      }
    })();
    return () => {
      cancelled = true;
      webauthnRef.current?.WebAuthnAbortService.cancelCeremony();
    };
    // One ceremony per attempt; Retry bumps `attempt`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempt]);

  const cancel = () => {
    webauthnRef.current?.WebAuthnAbortService.cancelCeremony();
    onCancel(KEY_CANCELLED);
  };

  return (
    <Dialog
      title="Use your security key"
      onClose={cancel}
      size="small"
      hideCloseButton
      closeOnBackdrop={false}
      footer={
        <>
          <button type="button" className="button button--quiet" onClick={onUsePassword}>
            Sign in with password instead
          </button>
          <span className="dialog__footer-spacer" />
          <button type="button" className="button button--secondary" onClick={cancel}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={() => setAttempt((count) => count + 1)}
            disabled={state === 'pending' || state === 'success'}
          >
            Retry
          </button>
        </>
      }
    >
      <div className={`key-prompt key-prompt--${state}`}>
        <div className="key-prompt__icon" aria-hidden="true">
          <KeyIcon />
        </div>
        <p role="status" className="key-prompt__status">
          {state === 'pending' || state === 'idle' ? 'Waiting for security key...' : null}
          {state === 'success' ? 'Security key verified' : null}
        </p>
        {state === 'error' && error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
