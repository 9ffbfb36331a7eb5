import { useCallback, useState } from 'react';
import '../admin/admin.css';
import type { SecurityKeyCredential, User } from '../api/types.ts';
import { BackupsPanel } from '../admin/BackupsPanel.tsx';
import { BlockedServersPanel } from '../admin/BlockedServersPanel.tsx';
import { ManageUserPanel } from '../admin/ManageUserPanel.tsx';
import { ProvisionUserForm } from '../admin/ProvisionUserForm.tsx';
import { UserRegistryPanel } from '../admin/UserRegistryPanel.tsx';
import { useUserRegistry } from '../admin/useUserRegistry.ts';
import { useCurrentUser, useSession } from '../session/session.tsx';
import { Screen } from './Screen.tsx';

/** Shown where the manage-user panel goes while no user is chosen. */
function ManagePlaceholder() {
  return (
    <div className="admin-placeholder">
      <p className="admin-placeholder__title">Manage a user</p>
      <p className="admin-placeholder__text">
        Choose Manage beside someone in the registry to edit their details, reset their password or
        remove their security keys.
      </p>
    </div>
  );
}

/**
 * /admin (admins only; the route sends everyone else to /): the user registry, the
 * provision-user form, the manage-user panel, the backups and the blocked servers.
 */
export function AdminScreen() {
  const currentUser = useCurrentUser();
  const { setUser, setCredentials } = useSession();
  const registry = useUserRegistry();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = registry.users.find((user) => user.id === selectedId) ?? null;
  const { upsert } = registry;

  const onUpdated = useCallback(
    (user: User) => {
      upsert(user);
      // The signed-in admin edited themselves: the header, menu and route guard follow.
      if (user.id === currentUser.id) setUser(user);
    },
    [upsert, currentUser.id, setUser],
  );

  const onSelfKeysChanged = useCallback(
    (credentials: SecurityKeyCredential[]) => setCredentials(credentials),
    [setCredentials],
  );

  // Closing the panel returns focus to the Manage button that opened it.
  const close = (id: number) => {
    setSelectedId(null);
    requestAnimationFrame(() =>
      document.querySelector<HTMLButtonElement>(`[data-manage-user="${id}"]`)?.focus(),
    );
  };

  return (
    <Screen title="Admin Console">
      <div className="admin">
        <UserRegistryPanel
          registry={registry}
          selectedId={selectedId}
          currentUserId={currentUser.id}
          onSelect={(user) => setSelectedId(user.id)}
        />
        <div className="admin__grid">
          {selected ? (
            <ManageUserPanel
              key={selected.id}
              user={selected}
              isSelf={selected.id === currentUser.id}
              onUpdated={onUpdated}
              onSelfKeysChanged={onSelfKeysChanged}
              onClose={() => close(selected.id)}
            />
          ) : (
            <ManagePlaceholder />
          )}
          <ProvisionUserForm onCreated={upsert} />
        </div>
        <BackupsPanel />
        <BlockedServersPanel />
      </div>
    </Screen>
  );
}
