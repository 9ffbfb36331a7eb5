import { Link } from 'wouter';
import { VaultMark } from '../ui/icons/shell.tsx';
import { AlertsButton } from './AlertsButton.tsx';
import { ProfileMenu } from './ProfileMenu.tsx';

export function Header() {
  return (
    <header className="app-header">
      <Link href="/" className="brand">
        <VaultMark />
        <span className="brand__name">
          The Vault<span className="visually-hidden">, dashboard</span>
        </span>
      </Link>
      <div className="app-header__actions">
        <AlertsButton />
        <ProfileMenu />
      </div>
    </header>
  );
}
