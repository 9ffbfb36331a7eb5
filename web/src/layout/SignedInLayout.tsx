import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Header } from './Header.tsx';
import { Navigation } from './Navigation.tsx';

/** Header, navigation and the current screen. */
export function SignedInLayout({ children }: { children: ReactNode }) {
  const mainRef = useRef<HTMLElement>(null);
  const [location] = useLocation();
  const firstRender = useRef(true);

  // After moving to another page, focus its heading so screen readers announce it.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const heading = mainRef.current?.querySelector<HTMLElement>('h1');
    heading?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [location]);

  return (
    <div className="app-shell">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        Skip to content
      </a>
      <Header />
      <Navigation />
      <main id="main" ref={mainRef} className="app-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
