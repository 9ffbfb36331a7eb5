import { useEffect, useState, type ComponentType } from 'react';
import { Link } from 'wouter';
import { VaultMark } from '../ui/icons/shell.tsx';
import { AlertsButton } from './AlertsButton.tsx';
import { ProfileMenu } from './ProfileMenu.tsx';

/**
 * The offline queue's count (offline/SyncStatus.tsx), fetched with the queue just after the
 * first render; nothing shows if it cannot be fetched.
 */
function SyncSlot() {
  const [Status, setStatus] = useState<ComponentType | null>(null);
  useEffect(() => {
    import('../offline/SyncStatus.tsx').then(
      (module) => setStatus(() => module.SyncStatus),
      () => undefined,
    );
  }, []);
  return Status && <Status />;
}

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
        <SyncSlot />
        <AlertsButton />
        <ProfileMenu />
      </div>
    </header>
  );
}
