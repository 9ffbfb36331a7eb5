import { useEffect, useId, useRef, useState } from 'react';
import { MoreIcon } from '../ui/icons/shell.tsx';
import { useDismiss } from '../ui/useDismiss.ts';
import { NavLink } from './NavLink.tsx';
import { currentness, type NavItem } from './nav-items.tsx';

/**
 * A phone's 'More' button at the end of the bottom bar: a disclosure opening a sheet above the
 * bar with the navigation items the bar has no room for. Opening it moves focus to its first
 * link; Escape, a tap outside or following a link closes it (Escape hands focus back to the
 * button). Wider screens show every item and hide this (layout.css).
 */
export function NavMore({ items, location }: { items: NavItem[]; location: string }) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const sheetId = useId();
  const close = () => setOpen(false);

  useDismiss(open, containerRef, close, buttonRef);

  useEffect(() => {
    if (open) containerRef.current?.querySelector<HTMLElement>('.main-nav__sheet a')?.focus();
  }, [open]);

  // Another page (by a link, Back, or a link elsewhere) closes the sheet.
  useEffect(() => setOpen(false), [location]);

  const inside = items.some((item) => currentness(item, location));
  return (
    <div className="main-nav__more" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className={`main-nav__link main-nav__more-button${inside ? ' is-active' : ''}`}
        aria-expanded={open}
        aria-controls={open ? sheetId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <MoreIcon />
        <span>More</span>
      </button>
      {open && (
        <ul id={sheetId} className="main-nav__sheet" data-popup="">
          {items.map((item) => (
            <li key={item.path}>
              <NavLink item={item} location={location} onClick={close} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
