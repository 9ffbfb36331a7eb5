import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchUsers } from '../api/admin.ts';
import type { User } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';

export const USERS_LOAD_FAILED = 'Unable to load users.';

export interface UserRegistry {
  users: User[];
  loading: boolean;
  error: string | null;
  reload: () => void;
  /** Puts a created or changed user in place (a new one by username, as the server lists). */
  upsert: (user: User) => void;
}

/** Every user (GET /users), kept current with what the admin creates and changes. */
export function useUserRegistry(): UserRegistry {
  const [users, setUsers] = useState<User[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const sequence = useRef(0);

  const load = useCallback(async () => {
    const seq = ++sequence.current;
    setLoading(true);
    setError(null);
    try {
      const list = await fetchUsers();
      if (seq !== sequence.current) return;
      setUsers(list);
    } catch (caught) {
      if (seq !== sequence.current) return;
      setError(messageOf(caught, USERS_LOAD_FAILED));
    } finally {
      if (seq === sequence.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    const counter = sequence;
    void load();
    return () => {
      counter.current++;
    };
  }, [load]);

  const upsert = useCallback((user: User) => {
    setUsers((current) =>
      current.some((existing) => existing.id === user.id)
        ? current.map((existing) => (existing.id === user.id ? user : existing))
        : [...current, user].sort((a, b) => (a.username < b.username ? -1 : 1)),
    );
  }, []);

  const reload = useCallback(() => void load(), [load]);

  return { users, loading, error, reload, upsert };
}
