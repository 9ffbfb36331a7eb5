import type { ReactNode } from 'react';

/** Small stroke icons drawn for the vault. Decorative: hidden from assistive technology. */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const VaultMark = () => (
  <svg className="vault-mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
    <circle cx="32" cy="32" r="27" fill="none" stroke="currentColor" strokeWidth="3" />
    <circle cx="32" cy="32" r="17" fill="none" stroke="currentColor" strokeWidth="3" />
    <circle cx="32" cy="32" r="5" fill="currentColor" />
    <path
      d="M32 5v10M32 49v10M5 32h10M49 32h10"
      stroke="currentColor"
      strokeWidth="3"
      strokeLinecap="round"
    />
  </svg>
);

export const DashboardIcon = () => (
  <Icon>
    <rect x="3.5" y="3.5" width="7" height="8" rx="1.5" />
    <rect x="13.5" y="3.5" width="7" height="5" rx="1.5" />
    <rect x="13.5" y="11.5" width="7" height="9" rx="1.5" />
    <rect x="3.5" y="14.5" width="7" height="6" rx="1.5" />
  </Icon>
);

export const ActivityIcon = () => (
  <Icon>
    <path d="M3 12h4l2.5-6 5 12 2.5-6H21" />
  </Icon>
);

export const CellarIcon = () => (
  <Icon>
    <path d="M3.5 20.5V9l8.5-5.5L20.5 9v11.5" />
    <path d="M3.5 20.5h17" />
    <circle cx="9" cy="15.5" r="2.2" />
    <circle cx="15" cy="15.5" r="2.2" />
    <circle cx="12" cy="11" r="2.2" />
  </Icon>
);

export const WhiskeyIcon = () => (
  <Icon>
    <path d="M5.5 5h13l-1.4 13.2a2 2 0 0 1-2 1.8H8.9a2 2 0 0 1-2-1.8Z" />
    <path d="M6.3 11.5h11.4" />
    <rect x="9" y="13" width="3.2" height="3.2" rx=".6" />
  </Icon>
);

export const WineIcon = () => (
  <Icon>
    <path d="M7.5 3.5h9l.3 4.5a4.8 4.8 0 0 1-9.6 0Z" />
    <path d="M12 12.8v7.7" />
    <path d="M8.5 20.5h7" />
    <path d="M7.4 7.5h9.2" />
  </Icon>
);

export const BeerIcon = () => (
  <Icon>
    <path d="M5.5 7.5h10v11a2 2 0 0 1-2 2h-6a2 2 0 0 1-2-2Z" />
    <path d="M15.5 10h2a2 2 0 0 1 2 2v3a2 2 0 0 1-2 2h-2" />
    <path d="M5.5 7.5a2.5 2.5 0 0 1 2.3-3.4 3 3 0 0 1 5.4 0 2.5 2.5 0 0 1 2.3 3.4" />
    <path d="M9 11v6M12 11v6" />
  </Icon>
);

export const FollowingIcon = () => (
  <Icon>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0" />
    <path d="M16 4.8a3.5 3.5 0 0 1 0 6.4" />
    <path d="M18 14.2a6.5 6.5 0 0 1 3.5 5.8" />
  </Icon>
);

export const AdminIcon = () => (
  <Icon>
    <path d="M12 3 4.5 6v5.5c0 4.5 3.2 8.2 7.5 9.5 4.3-1.3 7.5-5 7.5-9.5V6Z" />
    <path d="m9 12 2 2 4-4" />
  </Icon>
);

export const BellIcon = () => (
  <Icon>
    <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15Z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </Icon>
);

export const ChevronDownIcon = () => (
  <Icon>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

export const CloseIcon = () => (
  <Icon>
    <path d="M6 6l12 12M18 6 6 18" />
  </Icon>
);

export const KeyIcon = () => (
  <Icon>
    <circle cx="8" cy="15" r="4.5" />
    <path d="m11.3 11.7 8.2-8.2M16.5 6.5l2.5 2.5M14 9l2 2" />
  </Icon>
);

export const ArrowLeftIcon = () => (
  <Icon>
    <path d="M19 12H5M11 6l-6 6 6 6" />
  </Icon>
);

export const ArrowRightIcon = () => (
  <Icon>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Icon>
);

export const SearchIcon = () => (
  <Icon>
    <circle cx="10.5" cy="10.5" r="6" />
    <path d="m15 15 5.5 5.5" />
  </Icon>
);

export const EditIcon = () => (
  <Icon>
    <path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16Z" />
    <path d="m13.5 6.5 4 4" />
  </Icon>
);

export const TrashIcon = () => (
  <Icon>
    <path d="M4 7h16M10 11v6M14 11v6" />
    <path d="M5.5 7 6.5 19a2 2 0 0 0 2 1.8h7a2 2 0 0 0 2-1.8L18.5 7" />
    <path d="M9 7V4.5h6V7" />
  </Icon>
);

export const CheckIcon = () => (
  <Icon>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Icon>
);

export const ClockIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </Icon>
);

export const CameraIcon = () => (
  <Icon>
    <path d="M4 8.5h3l1.5-2.5h7L17 8.5h3v10.5H4Z" />
    <circle cx="12" cy="13.5" r="3.5" />
  </Icon>
);

export const LockIcon = () => (
  <Icon>
    <rect x="5" y="10.5" width="14" height="10" rx="2" />
    <path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" />
  </Icon>
);

export const UserPlusIcon = () => (
  <Icon>
    <circle cx="9.5" cy="8" r="3.5" />
    <path d="M3 20a6.5 6.5 0 0 1 13 0" />
    <path d="M19 8v6M16 11h6" />
  </Icon>
);

export const UsersIcon = () => (
  <Icon>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0" />
    <circle cx="17" cy="9" r="2.6" />
    <path d="M17.5 14.2a5 5 0 0 1 4 4.8" />
  </Icon>
);

export const PhoneIcon = () => (
  <Icon>
    <rect x="6.5" y="2.5" width="11" height="19" rx="2.5" />
    <path d="M10.5 18.5h3" />
    <path d="M9.5 9.5 11 11l3.5-3.5" />
  </Icon>
);

export const ProfileIcon = () => (
  <Icon>
    <circle cx="12" cy="9" r="3.5" />
    <path d="M5.5 19.5a7 7 0 0 1 13 0" />
    <rect x="2.5" y="2.5" width="19" height="19" rx="4" />
  </Icon>
);

export const CalendarIcon = () => (
  <Icon>
    <rect x="3.5" y="5" width="17" height="15.5" rx="2" />
    <path d="M3.5 10h17M8 3v4M16 3v4" />
  </Icon>
);

export const GlobeIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M3.5 12h17M12 3.5c2.3 2.4 3.5 5.2 3.5 8.5s-1.2 6.1-3.5 8.5c-2.3-2.4-3.5-5.2-3.5-8.5S9.7 5.9 12 3.5Z" />
  </Icon>
);

/** One rating star; `filled` draws it solid. */
export const StarIcon = ({ filled }: { filled: boolean }) => (
  <svg
    className="icon star"
    viewBox="0 0 24 24"
    width="16"
    height="16"
    fill={filled ? 'currentColor' : 'none'}
    stroke="currentColor"
    strokeWidth="1.6"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d="m12 3.5 2.6 5.4 5.9.8-4.3 4.1 1.1 5.8L12 16.8l-5.3 2.8 1.1-5.8-4.3-4.1 5.9-.8Z" />
  </svg>
);
