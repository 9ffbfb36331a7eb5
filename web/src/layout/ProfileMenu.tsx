import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { ROLE_LABELS } from '../session/roles.ts';
import { useCurrentUser, useSession } from '../session/session.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { ChevronDownIcon } from '../ui/icons/shell.tsx';
import { useDismiss } from '../ui/useDismiss.ts';

/** The header's profile menu: Profile, Back to dashboard, Sign out. */
export function ProfileMenu() {
  const user = useCurrentUser();
  const { logout } = useSession();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useDismiss(open, containerRef, () => setOpen(false), buttonRef);

  const items = () =>
    Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (open) items()[0]?.focus();
  }, [open]);

  const close = () => setOpen(false);

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

  const signOut = async () => {
    close();
    buttonRef.current?.focus();
    setSigningOut(true);
    try {
      await logout();
    } finally {
      setSigningOut(false);
    }
  };

  return (
    <div className="profile-menu" ref={containerRef}>
      <button
        ref={buttonRef}
        type="button"
        className="profile-menu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Avatar user={user} />
        <span className="profile-menu__name">
          <span className="visually-hidden">Account menu for </span>
          {user.fullName || user.username}
        </span>
        <ChevronDownIcon />
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
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
            disabled={signingOut}
          >
            Sign out
          </button>
        </div>
      )}
    </div>
  );
}
