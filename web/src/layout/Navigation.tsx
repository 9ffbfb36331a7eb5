import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { useCurrentUser } from '../session/session.tsx';
import { isAdmin } from '../session/roles.ts';
import { NAV_ITEMS } from './nav-items.tsx';
import { NavLink } from './NavLink.tsx';
import { NavMore } from './NavMore.tsx';

/**
 * The main navigation: a sidebar on wide screens, a scrolling bar under the header on narrower
 * ones, and on a phone a bar at the bottom with four items and 'More' for the rest (the items
 * not on the phone's bar are hidden there by layout.css, and 'More' everywhere else).
 */
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
        {items.map((item) => (
          <li key={item.path} className={item.onPhoneBar ? undefined : 'main-nav__extra'}>
            <NavLink item={item} location={location} />
          </li>
        ))}
        <li className="main-nav__more-item">
          <NavMore items={items.filter((item) => !item.onPhoneBar)} location={location} />
        </li>
      </ul>
    </nav>
  );
}
