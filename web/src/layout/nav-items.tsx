import type { ReactNode } from 'react';
import { archivePath, archiveTitle } from '../archives.ts';
import {
  ActivityIcon,
  AdminIcon,
  BeerIcon,
  CellarIcon,
  DashboardIcon,
  FollowingIcon,
  StatsIcon,
  WhiskeyIcon,
  WineIcon,
} from '../ui/icons/shell.tsx';

export interface NavItem {
  path: string;
  label: string;
  icon: ReactNode;
  adminOnly?: boolean;
  /** On a phone's bottom bar; the others are under its 'More' button. */
  onPhoneBar?: boolean;
  /** Other paths under which this item counts as the current page. */
  alsoActiveUnder?: string[];
}

/**
 * The navigation, in order. Admin Console is for admins only. A phone's bar holds the four used
 * most (what is new, what is in the cellar, the dashboard, the people) and 'More' for the rest.
 */
export const NAV_ITEMS: NavItem[] = [
  { path: '/', label: 'Dashboard', icon: <DashboardIcon />, onPhoneBar: true },
  { path: '/activity', label: 'Activity', icon: <ActivityIcon />, onPhoneBar: true },
  { path: '/cellar', label: 'Cellar', icon: <CellarIcon />, onPhoneBar: true },
  { path: archivePath('WHISKEY'), label: archiveTitle('WHISKEY'), icon: <WhiskeyIcon /> },
  { path: archivePath('WINE'), label: archiveTitle('WINE'), icon: <WineIcon /> },
  { path: archivePath('BEER'), label: archiveTitle('BEER'), icon: <BeerIcon /> },
  { path: '/stats', label: 'Stats', icon: <StatsIcon /> },
  {
    path: '/following',
    label: 'Following',
    icon: <FollowingIcon />,
    alsoActiveUnder: ['/users'],
    onPhoneBar: true,
  },
  { path: '/admin', label: 'Admin Console', icon: <AdminIcon />, adminOnly: true },
];

const under = (location: string, path: string) => location.startsWith(`${path}/`);

/**
 * aria-current for a navigation item: 'page' on its own page, 'true' on a page inside its
 * section (/users/{username} belongs to Following), nothing elsewhere.
 */
export function currentness(item: NavItem, location: string): 'page' | 'true' | undefined {
  if (location === item.path) return 'page';
  if (item.path === '/') return undefined;
  const inside = [item.path, ...(item.alsoActiveUnder ?? [])].some((path) => under(location, path));
  return inside ? 'true' : undefined;
}
