import { Link } from 'wouter';
import { currentness, type NavItem } from './nav-items.tsx';

/** One navigation item: its icon and label, marked with aria-current on its page. */
export function NavLink({
  item,
  location,
  onClick,
}: {
  item: NavItem;
  location: string;
  onClick?: () => void;
}) {
  const current = currentness(item, location);
  return (
    <Link
      href={item.path}
      className={`main-nav__link${current ? ' is-active' : ''}`}
      aria-current={current}
      onClick={onClick}
    >
      {item.icon}
      <span>{item.label}</span>
    </Link>
  );
}
