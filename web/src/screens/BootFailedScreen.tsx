import { useSession } from '../session/session.tsx';
import { VaultMark } from '../ui/icons/shell.tsx';
import '../session/sign-in.css';

/**
 * GET /auth/me failed with something other than 401, and the device keeps no copy to open
 * offline: say what, and offer to try again. Loaded only then.
 */
export function BootFailedScreen({ message }: { message: string }) {
  const { recheck } = useSession();
  return (
    <main className="auth-page">
      <section className="auth-card" aria-labelledby="boot-failed-title">
        <div className="auth-card__brand">
          <VaultMark />
        </div>
        <h1 id="boot-failed-title" className="auth-card__title">
          The vault is unreachable
        </h1>
        <p role="alert" className="form-error">
          {message}
        </p>
        <button type="button" className="button button--primary button--block" onClick={recheck}>
          Try again
        </button>
      </section>
    </main>
  );
}
