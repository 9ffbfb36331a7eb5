import { createContext, use, useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { ApiError, fetchNotifications } from '../api/client.ts';
import type { VaultNotification } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';

interface NotificationsContextValue {
  notifications: VaultNotification[];
  /** How many still wait for an answer (the Alerts badge). */
  pendingCount: number;
  loading: boolean;
  /** Why the last load failed, for the Alerts panel (never a banner). */
  error: string | null;
  reload: () => Promise<void>;
  /** Puts a changed notification (after answering it) in place of the old one. */
  replace: (notification: VaultNotification) => void;
}

const NotificationsContext = createContext<NotificationsContextValue | null>(null);

/** Loads the signed-in user's notifications once per session and keeps them for the header. */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [notifications, setNotifications] = useState<VaultNotification[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async (isActive: () => boolean) => {
    setLoading(true);
    try {
      const list = await fetchNotifications();
      if (!isActive()) return;
      setNotifications(list);
      setError(null);
    } catch (caught) {
      if (!isActive()) return;
      setNotifications([]);
      // A server without the notifications route yet simply has none to show.
      setError(caught instanceof ApiError && caught.status === 404 ? null : messageOf(caught, ''));
    } finally {
      if (isActive()) setLoading(false);
    }
  }, []);

  useEffect(() => {
    let active = true;
    void load(() => active);
    return () => {
      active = false;
    };
  }, [load]);

  const reload = useCallback(() => load(() => true), [load]);

  const replace = useCallback((notification: VaultNotification) => {
    setNotifications((current) =>
      current.map((item) => (item.id === notification.id ? notification : item)),
    );
  }, []);

  const value = useMemo<NotificationsContextValue>(
    () => ({
      notifications,
      pendingCount: notifications.filter((item) => item.status === 'PENDING').length,
      loading,
      error,
      reload,
      replace,
    }),
    [notifications, loading, error, reload, replace],
  );

  return <NotificationsContext value={value}>{children}</NotificationsContext>;
}

export function useNotifications(): NotificationsContextValue {
  const value = use(NotificationsContext);
  if (!value) throw new Error('useNotifications must be used inside <NotificationsProvider>');
  return value;
}
