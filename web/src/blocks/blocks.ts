/**
 * Blocks in TanStack Query: the caller's Blocked list, blocking (a local user by username, a
 * fediverse account by its actor URI) and unblocking. A block ends follows and hides entries
 * both ways, so it refreshes what shows follows, entries and people. Loaded only with the
 * screens that offer blocking (profile, public profile, following), never in the first download.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { BlockBody, BlockItem } from '../../../contract/blocks.ts';
import { call } from '../api/call.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useNotes } from '../notes/notes.tsx';

export type { BlockItem };

export const blocksKey = ['blocks'] as const;
export const BLOCK_FAILED = 'Failed to block';
export const UNBLOCK_FAILED = 'Failed to unblock';

function refresh(queryClient: QueryClient) {
  for (const queryKey of [
    blocksKey,
    queryKeys.following,
    queryKeys.followers,
    queryKeys.activity,
    queryKeys.notifications,
    queryKeys.userSearch.all,
    queryKeys.beverages.all,
  ]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/** GET /users/blocks: the caller's blocks, most recent first. */
export function useBlocks() {
  return useQuery({
    queryKey: blocksKey,
    queryFn: async ({ signal }) => (await call('GET /users/blocks', { signal })).blocks,
  });
}

/** POST /users/blocks. Failures are the caller's to show (in its dialog). */
export function useBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (target: BlockBody) =>
      (await call('POST /users/blocks', { json: target })).block,
    onSuccess: () => refresh(queryClient),
  });
}

/**
 * DELETE /users/blocks/{id}; a note says 'Unblocked …', or on failure the red banner says
 * 'Failed to unblock'.
 */
export function useUnblock() {
  const queryClient = useQueryClient();
  const { notifySuccess, notifyError } = useNotes();
  return useMutation({
    mutationFn: (block: Pick<BlockItem, 'id' | 'displayName'>) =>
      call('DELETE /users/blocks/{id}', { params: { id: block.id } }),
    onSuccess: (_nothing, block) => {
      notifySuccess(`Unblocked ${block.displayName}`);
      queryClient.setQueryData<BlockItem[]>(blocksKey, (current) =>
        current?.filter((item) => item.id !== block.id),
      );
      refresh(queryClient);
    },
    onError: () => notifyError(UNBLOCK_FAILED),
  });
}
