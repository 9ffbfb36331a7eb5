/**
 * The activity feed in TanStack Query (one infinite query, paged by the server's cursor) and
 * 'Add to vault', which copies an entry (local, or received from a remote vault) into the
 * caller's own vault.
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys.ts';
import { call } from '../api/call.ts';
import { cloneBeverage, fetchActivity } from '../api/social.ts';
import type { ActivityItem, Beverage, BeverageStatus } from '../api/types.ts';
import { useVault } from '../vault/VaultProvider.tsx';

/** GET /activity page after page; `items` is every loaded item, newest first. */
export function useActivityFeed() {
  const query = useInfiniteQuery({
    queryKey: queryKeys.activity,
    queryFn: ({ pageParam, signal }) => fetchActivity({ cursor: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const seen = new Set<number>();
  const items: ActivityItem[] = [];
  for (const page of query.data?.pages ?? []) {
    for (const item of page.activities) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      items.push(item);
    }
  }
  return { ...query, items };
}

/** Says what 'Add to vault' did. */
export const addedToVault = (copy: Pick<Beverage, 'name'>) =>
  `Added “${copy.name}” to your to-try list`;

/** POST /activity/remote-entries/{id}/clone → the caller's new entry (a to-try copy by default). */
export async function cloneRemoteEntry(id: number, status?: BeverageStatus): Promise<Beverage> {
  const json = status ? { status } : {};
  return (await call('POST /activity/remote-entries/{id}/clone', { params: { id }, json }))
    .beverage;
}

/**
 * 'Add to vault': copies an entry into the caller's to-try list, photo included, through
 * POST /beverages/{id}/clone for a local entry and POST /activity/remote-entries/{id}/clone for
 * a remote one; the caller's lists on screen take the copy and every cached list is refreshed.
 */
export function useAddToVault(kind: ActivityItem['kind']) {
  const queryClient = useQueryClient();
  const { publish } = useVault();
  return useMutation({
    mutationFn: (entry: { id: number }) =>
      kind === 'remote' ? cloneRemoteEntry(entry.id) : cloneBeverage(entry.id),
    onSuccess: (copy) => {
      publish({ kind: 'saved', entry: copy });
      void queryClient.invalidateQueries({ queryKey: queryKeys.beverages.all });
    },
  });
}
