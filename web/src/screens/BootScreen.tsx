import { useSession } from '../session/session.tsx';
import { VaultMark } from '../ui/icons/shell.tsx';
import '../session/sign-in.css';

/** 'Booting the node...' while GET /auth/me runs (index.html shows the same markup first). */
export function BootScreen() {
  return (
    <main className="boot" aria-busy="true">
      <div className="boot__mark" aria-hidden="true" />
      <p className="boot__text" role="status">
        Booting the node...
      </p>
    </main>
  );
}

/** GET /auth/me failed with something other than 401: say what, and offer to try again. */
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
