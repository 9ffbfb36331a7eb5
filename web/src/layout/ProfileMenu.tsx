import { Suspense, useEffect, useId, useRef, useState } from 'react';
import { useCurrentUser } from '../session/session.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { ChevronDownIcon } from '../ui/icons/shell.tsx';
import { lazyNamed } from '../ui/lazy.tsx';
import { useDismiss } from '../ui/useDismiss.ts';

// The open menu's items: fetched just after the first render, before anyone opens the menu.
const ProfileMenuItems = lazyNamed(() => import('./ProfileMenuItems.tsx'), 'ProfileMenuItems');

/** The header's profile menu: Profile, Back to dashboard, Sign out. */
export function ProfileMenu() {
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useDismiss(open, containerRef, () => setOpen(false), buttonRef);
  useEffect(() => ProfileMenuItems.preload(), []);

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
        <Suspense fallback={null}>
          <ProfileMenuItems id={menuId} close={() => setOpen(false)} buttonRef={buttonRef} />
        </Suspense>
      )}
    </div>
  );
}
