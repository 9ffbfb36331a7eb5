import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';
import { fetchNotifications, pendingCountOf } from '../api/notifications.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { VaultNotification } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';

/**
 * How often the Alerts badge asks for new notifications while the tab is visible (docs/social.md,
 * "Notifications in the client"): a hidden tab does not poll, and showing it again asks at once.
 */
export const NOTIFICATIONS_POLL_MS = 30_000;

/** GET /notifications; a vault without the route yet simply has none. */
async function loadNotifications(): Promise<VaultNotification[]> {
  try {
    return await fetchNotifications();
  } catch (caught) {
    if (caught instanceof ApiError && caught.status === 404) return [];
    throw caught;
  }
}

export interface Notifications {
  notifications: VaultNotification[];
  /** How many still wait for an answer (the Alerts badge). */
  pendingCount: number;
  /** True until the first answer. */
  loading: boolean;
  /** Why the last load failed, for the Alerts panel (never a banner). */
  error: string | null;
  /** Asks the server again (when the panel opens). */
  reload: () => void;
}

/** The signed-in user's notifications, newest first, polled while the tab is visible. */
export function useNotifications(): Notifications {
  const query = useQuery({
    queryKey: queryKeys.notifications,
    queryFn: loadNotifications,
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
  const notifications = query.data ?? [];
  return {
    notifications,
    pendingCount: pendingCountOf(notifications),
    loading: query.isPending,
    error: query.error ? messageOf(query.error, 'Unable to load notifications.') : null,
    reload: () => void query.refetch(),
  };
}
