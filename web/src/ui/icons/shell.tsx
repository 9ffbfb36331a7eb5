// The icons of the header, the navigation and the notes: part of the first download.
import { Icon } from './Icon.tsx';

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

export const StatsIcon = () => (
  <Icon>
    <path d="M3.5 20.5h17M6.5 17v-5M12 17V7M17.5 17V4" />
  </Icon>
);

export const MoreIcon = () => (
  <Icon>
    <circle cx="5" cy="12" r="1.4" />
    <circle cx="12" cy="12" r="1.4" />
    <circle cx="19" cy="12" r="1.4" />
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
