import { Suspense, useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { UNEXPECTED_LOGIN_RESPONSE } from '../api/sign-in.ts';
import type { AuthenticationOptions, SessionGrant } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { useSession } from '../session/session.tsx';
import { Field } from '../ui/Field.tsx';
import { VaultMark } from '../ui/icons.tsx';
import { DialogLoading, lazyNamed } from '../ui/lazy.tsx';
import '../session/sign-in.css';

// Only accounts with a second factor see these: fetched after the password step asks for one.
const SecurityKeyPrompt = lazyNamed(
  () => import('../session/SecurityKeyPrompt.tsx'),
  'SecurityKeyPrompt',
);
const TotpPrompt = lazyNamed(() => import('../session/TotpPrompt.tsx'), 'TotpPrompt');

/** The second step a login answer asked for, if any. */
type Challenge = { kind: 'webauthn'; options: AuthenticationOptions } | { kind: 'totp' };

/** With no session: username, password and Log In, then any second-factor prompt. */
export function LoginScreen() {
  const { login, completeLogin } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Sign in · The Vault';
    usernameRef.current?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    // Fetched while the password is checked, in case the account asks for a second factor.
    SecurityKeyPrompt.preload();
    TotpPrompt.preload();
    try {
      const result = await login(username, password);
      if (result.requiresWebAuthn) setChallenge({ kind: 'webauthn', options: result.options });
      else if (result.requiresTotp) setChallenge({ kind: 'totp' });
    } catch (caught) {
      setError(messageOf(caught, UNEXPECTED_LOGIN_RESPONSE));
    } finally {
      setBusy(false);
    }
  };

  const finish = (grant: SessionGrant) => {
    setChallenge(null);
    completeLogin(grant);
  };

  /** Closes the second-factor prompt and returns to the password field. */
  const stop = (message: string | null) => {
    setChallenge(null);
    setError(message);
    // After the dialog has closed and handed focus back.
    setTimeout(() => passwordRef.current?.focus(), 0);
  };

  return (
    <main className="auth-page">
      <section className="auth-card" aria-labelledby="login-title">
        <div className="auth-card__brand">
          <VaultMark />
        </div>
        <h1 id="login-title" className="auth-card__title">
          The Vault
        </h1>
        <p className="auth-card__subtitle">Your private log of whiskey, wine and beer.</p>
        {/* No client rules: the server judges every submit, an empty one too, and says why. */}
        <form
          className="stack"
          onSubmit={submit}
          noValidate
          aria-describedby={error ? 'login-error' : undefined}
        >
          <Field
            label="Username"
            name="username"
            type="text"
            inputRef={usernameRef}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            inputRef={passwordRef}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            autoComplete="current-password"
          />
          {error && (
            <p id="login-error" role="alert" className="form-error">
              {error}
            </p>
          )}
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={busy}
            aria-busy={busy}
          >
            Log In
          </button>
        </form>
      </section>

      <Suspense fallback={<DialogLoading />}>
        {challenge?.kind === 'webauthn' && (
          <SecurityKeyPrompt
            options={challenge.options}
            onSuccess={finish}
            onCancel={stop}
            onUsePassword={() => {
              setPassword('');
              stop(null);
            }}
          />
        )}
        {challenge?.kind === 'totp' && (
          <TotpPrompt
            onSuccess={finish}
            onCancel={() => stop('TOTP verification cancelled')}
            onExpired={() => stop('Login session expired')}
          />
        )}
      </Suspense>
    </main>
  );
}
