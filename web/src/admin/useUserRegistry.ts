import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchUsers } from '../api/admin.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { User } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { upsertUser } from './admin-rules.ts';

export const USERS_LOAD_FAILED = 'Unable to load users.';

export interface UserRegistry {
  users: User[];
  loading: boolean;
  error: string | null;
  reload: () => void;
  /** Puts a created or changed user in place (a new one by username, as the server lists). */
  upsert: (user: User) => void;
}

/** Every user (GET /users), kept current in the query cache with what the admin creates and changes. */
export function useUserRegistry(): UserRegistry {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.users, queryFn: fetchUsers });

  const upsert = useCallback(
    (user: User) =>
      queryClient.setQueryData<User[]>(queryKeys.users, (users) =>
        users ? upsertUser(users, user) : users,
      ),
    [queryClient],
  );
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);

  return {
    users: query.data ?? [],
    loading: query.isPending,
    error: query.error ? messageOf(query.error, USERS_LOAD_FAILED) : null,
    reload,
    upsert,
  };
}
