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
