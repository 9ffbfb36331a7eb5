import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { useCurrentUser } from '../session/session.tsx';
import { isAdmin } from '../session/roles.ts';
import { NAV_ITEMS, currentness } from './nav-items.tsx';

/** The main navigation: a sidebar on wide screens, a scrolling bar under the header otherwise. */
export function Navigation() {
  const user = useCurrentUser();
  const [location] = useLocation();
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || isAdmin(user));
  const navRef = useRef<HTMLElement>(null);

  // As a scrolling bar (narrow screens), keep the current item in view.
  useEffect(() => {
    const nav = navRef.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    const left = current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
    nav.scrollTo({ left: Math.max(0, left) });
  }, [location]);

  return (
    <nav ref={navRef} className="main-nav" aria-label="Main">
      <ul className="main-nav__list">
        {items.map((item) => {
          const current = currentness(item, location);
          return (
            <li key={item.path}>
              <Link
                href={item.path}
                className={`main-nav__link${current ? ' is-active' : ''}`}
                aria-current={current}
              >
                {item.icon}
                <span>{item.label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
