import { createContext, use, useCallback, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { QueryClient } from '@tanstack/query-core';
import { navigate } from 'wouter/use-browser-location';
import * as api from '../api/client.ts';
import { fetchCurrentUser, logout as signOut } from '../api/shell-calls.ts';
import type { LoginAnswer, SecurityKeyCredential, SessionGrant, User } from '../api/types.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | {
      status: 'unavailable';
      message: string;
      /** The check got no answer at all (offline, or the server is gone), not an error answer. */
      unreachable: boolean;
    }
  | {
      status: 'signed-in';
      user: User;
      credentials: SecurityKeyCredential[];
      /** False until GET /webauthn/credentials has answered for this session. */
      credentialsLoaded: boolean;
      /** Changes at every sign-in, so everything kept for one session starts afresh. */
      epoch: number;
      /**
       * Signed in from the device copy: the vault could not be reached at start. Cleared once
       * it answers for the same user.
       */
      offline?: boolean;
      /** Fills the new session's query cache with the device copy (an offline start). */
      restore?: (client: QueryClient) => void;
    };

interface SessionContextValue {
  state: SessionState;
  /** Runs GET /auth/me again (after the server could not be reached at start). */
  recheck: () => void;
  /**
   * Submits the credentials. A plain success signs in at once; a second-factor answer is
   * returned for the login screen to complete with `completeLogin`.
   */
  login: (username: string, password: string) => Promise<LoginAnswer>;
  /** Signs in with what a finished second-factor step returned. */
  completeLogin: (grant: SessionGrant) => void;
  /** POST /auth/logout, then forgets everything and goes to /. 'Failed to logout' if refused. */
  logout: () => Promise<void>;
  /** Replaces the signed-in user after the server returned a changed copy. */
  setUser: (user: User) => void;
  setCredentials: (credentials: SecurityKeyCredential[]) => void;
  /** GET /webauthn/credentials again (done at every sign-in; the profile page asks too). */
  reloadCredentials: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

let epochCounter = 0;
/** How often a session check that got no answer is tried again. */
const RETRY_MS = 5000;

/**
 * GET /webauthn/credentials. The second-factor calls are not part of the first download: only the
 * profile page and the sign-in prompts use the keys, and both are fetched on demand too.
 */
const fetchCredentials = () =>
  import('../api/second-factor.ts').then((module) => module.fetchCredentials());

/** The device copy (offline/device-copy.ts): read at an offline start, forgotten at the end. */
const deviceCopy = () => import('../offline/device-copy.ts');
const forgetDeviceCopy = () =>
  void deviceCopy().then(
    (module) => module.forgetDeviceCopy(),
    () => undefined,
  );

/** A new signed-in session (a new epoch), with what an offline start adds. */
const signedIn = (
  user: User,
  credentials: SecurityKeyCredential[] = [],
  more?: { offline: true; restore: (client: QueryClient) => void },
): SessionState => ({
  status: 'signed-in',
  user,
  credentials,
  credentialsLoaded: false,
  epoch: ++epochCounter,
  ...more,
});

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [checkCount, setCheckCount] = useState(0);
  const { clear: clearNotes, notifyError } = useNotes();

  useEffect(() => {
    let active = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    fetchCurrentUser().then(
      (user) => {
        if (!active) return;
        const fresh = signedIn(user);
        // Back online as the user the device remembered: the same session goes on.
        setState((current) =>
          current.status === 'signed-in' && current.offline && current.user.id === user.id
            ? { ...current, user, offline: false }
            : fresh,
        );
      },
      (error: unknown) => {
        if (!active) return;
        if (error instanceof api.ApiError && error.status === 401) {
          forgetDeviceCopy();
          setState({ status: 'signed-out' });
          return;
        }
        const unreachable = (error as api.ApiError).status === api.NO_ANSWER;
        const unavailable: SessionState = {
          status: 'unavailable',
          message: messageOf(error, api.INVALID_RESPONSE),
          unreachable,
        };
        if (!unreachable) {
          setState(unavailable);
          return;
        }
        // No browser event says when a server is back (or a captive portal lets go): ask
        // again now and then, quietly (the screen stays as it is until the answer).
        retry = setTimeout(() => setCheckCount((count) => count + 1), RETRY_MS);
        // Meanwhile the vault opens as the device last kept it, if it kept a copy.
        deviceCopy()
          .then((module) => module.rememberedSession())
          .catch(() => null)
          .then((remembered) => {
            if (!active) return;
            const offline = remembered ? signedIn(remembered.user, [], remembered) : unavailable;
            setState((current) => (current.status === 'signed-in' ? current : offline));
          });
      },
    );
    return () => {
      active = false;
      clearTimeout(retry);
    };
  }, [checkCount]);

  // A signed-in call answering 401 means the session ended elsewhere: back to the login screen.
  useEffect(() => {
    api.setUnauthorizedListener(() => {
      forgetDeviceCopy();
      setState((current) => (current.status === 'signed-in' ? { status: 'signed-out' } : current));
    });
    return () => api.setUnauthorizedListener(null);
  }, []);

  const completeLogin = useCallback((grant: SessionGrant) => {
    setState(signedIn(grant.user, grant.credentials));
  }, []);

  const login = useCallback(
    async (username: string, password: string) => {
      const { login: signIn } = await import('../api/sign-in.ts');
      const result = await signIn(username, password);
      if (!result.requiresWebAuthn && !result.requiresTotp) completeLogin(result);
      return result;
    },
    [completeLogin],
  );

  const logout = useCallback(async () => {
    try {
      await signOut();
    } catch {
      notifyError('Failed to logout');
      return;
    }
    clearNotes();
    forgetDeviceCopy();
    setState({ status: 'signed-out' });
    navigate('/', { replace: true });
  }, [clearNotes, notifyError]);

  const setUser = useCallback((user: User) => {
    setState((current) => (current.status === 'signed-in' ? { ...current, user } : current));
  }, []);

  const setCredentials = useCallback((credentials: SecurityKeyCredential[]) => {
    setState((current) =>
      current.status === 'signed-in'
        ? { ...current, credentials, credentialsLoaded: true }
        : current,
    );
  }, []);

  const reloadCredentials = useCallback(async () => {
    setCredentials(await fetchCredentials());
  }, [setCredentials]);

  // After a successful login the credentials are loaded (entries and
  // notifications are loaded by the providers of the signed-in app).
  const epoch = state.status === 'signed-in' && !state.offline ? state.epoch : null;
  useEffect(() => {
    if (epoch === null) return;
    let active = true;
    fetchCredentials().then(
      (credentials) => {
        if (!active) return;
        setState((current) =>
          current.status === 'signed-in' && current.epoch === epoch
            ? { ...current, credentials, credentialsLoaded: true }
            : current,
        );
      },
      () => {
        // The profile page shows the error when it asks again.
      },
    );
    return () => {
      active = false;
    };
  }, [epoch]);

  const recheck = useCallback(() => {
    // A session opened from the device copy stays on screen while the vault is asked.
    setState((current) => (current.status === 'signed-in' ? current : { status: 'loading' }));
    setCheckCount((count) => count + 1);
  }, []);

  const value = useMemo<SessionContextValue>(
    () => ({
      state,
      recheck,
      login,
      completeLogin,
      logout,
      setUser,
      setCredentials,
      reloadCredentials,
    }),
    [state, recheck, login, completeLogin, logout, setUser, setCredentials, reloadCredentials],
  );

  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionContextValue {
  const value = use(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}

/** The signed-in user. Only for components rendered inside the signed-in layout. */
export function useCurrentUser(): User {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useCurrentUser needs a signed-in session');
  return state.user;
}
