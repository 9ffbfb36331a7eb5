import { useEffect, useRef } from 'react';
import type { KeyboardEvent, RefObject } from 'react';
import { Link } from 'wouter';
import { ROLE_LABELS } from '../session/roles.ts';
import { useCurrentUser, useSession } from '../session/session.tsx';

/**
 * The open profile menu: who is signed in, Profile, Back to dashboard, Sign out, with the menu
 * keys (arrows, Home, End; Tab closes it). Loaded just after the first render, so that the
 * first download holds only the button (web/src/layout/ProfileMenu.tsx).
 */
export function ProfileMenuItems({
  id,
  close,
  buttonRef,
}: {
  id: string;
  close: () => void;
  buttonRef: RefObject<HTMLButtonElement | null>;
}) {
  const user = useCurrentUser();
  const { logout } = useSession();
  const menuRef = useRef<HTMLDivElement>(null);

  const items = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    items()[0]?.focus();
  }, []);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowDown') next = list[(index + 1) % list.length];
    else if (event.key === 'ArrowUp') next = list[(index - 1 + list.length) % list.length];
    else if (event.key === 'Home') next = list[0];
    else if (event.key === 'End') next = list.at(-1);
    else if (event.key === 'Tab') close();
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };

  // The menu closes at once (so Sign out cannot be pressed twice) and focus goes back to its
  // button while the session ends.
  const signOut = () => {
    close();
    buttonRef.current?.focus();
    void logout();
  };

  return (
    <div
      ref={menuRef}
      id={id}
      className="popover profile-menu__menu"
      role="menu"
      aria-label="Account"
      onKeyDown={onMenuKeyDown}
    >
      <div className="profile-menu__who" role="presentation">
        <span className="profile-menu__who-name">{user.fullName || user.username}</span>
        <span className="profile-menu__who-meta">
          @{user.username} · {ROLE_LABELS[user.role]}
        </span>
      </div>
      <Link href="/profile" role="menuitem" tabIndex={-1} className="menu-item" onClick={close}>
        Profile
      </Link>
      <Link href="/" role="menuitem" tabIndex={-1} className="menu-item" onClick={close}>
        Back to dashboard
      </Link>
      <div className="menu-separator" role="separator" />
      <button
        type="button"
        role="menuitem"
        tabIndex={-1}
        className="menu-item menu-item--danger"
        onClick={signOut}
      >
        Sign out
      </button>
    </div>
  );
}
