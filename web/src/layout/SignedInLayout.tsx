import { useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Header } from './Header.tsx';
import { Navigation } from './Navigation.tsx';
import './layout.css';

/** Menus, panels and dialogs: while focus is in one that is open, the heading leaves it there. */
const POPUPS =
  '[role="menu"], [role="dialog"], [role="alertdialog"], dialog, .popover, [data-popup]';

/**
 * Focuses the page's visible h1, if it is there yet (while a screen loads, the previous one may
 * still be in the DOM, hidden). Returns whether it is there. Focus the user has since moved into
 * a menu, panel or dialog (opened while the screen loaded) stays where it is: moving it would
 * close them.
 */
function focusHeading(main: HTMLElement): boolean {
  const heading = [...main.querySelectorAll<HTMLElement>('h1')].find(
    (h1) => h1.getClientRects().length > 0,
  );
  if (heading && !document.activeElement?.closest(POPUPS)) heading.focus({ preventScroll: true });
  return heading !== undefined;
}

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
    const main = mainRef.current;
    if (!main) return;
    window.scrollTo({ top: 0 });
    if (focusHeading(main)) return;
    // A screen loaded on demand: its heading arrives with its code.
    const observer = new MutationObserver(() => {
      if (focusHeading(main)) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
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
