import { useEffect, useId, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, fetchProfile } from '../api/client.ts';
import type { PublicProfile } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { ArrowLeftIcon } from '../ui/icons.tsx';
import { EntryList, NO_ENTRIES } from '../vault/EntryList.tsx';
import { useBeverageList } from '../vault/useBeverageList.ts';
import { ARCHIVE_PAGE_SIZE } from './ArchiveScreen.tsx';
import { Screen } from './Screen.tsx';

export const PROFILE_NOT_FOUND = 'Profile not found.';

type ProfileState =
  | { status: 'loading' }
  | { status: 'ready'; user: PublicProfile }
  | { status: 'error'; message: string };

/** The user's entries, read-only unless the viewer is an admin (SPEC section 6). */
function ProfileEntries({ user }: { user: PublicProfile }) {
  const titleId = useId();
  const list = useBeverageList({ userId: user.id }, { pageSize: ARCHIVE_PAGE_SIZE });
  return (
    <section className="archive-group" aria-labelledby={titleId}>
      <h2 id={titleId} className="archive-group__title">
        Vault entries
      </h2>
      <EntryList list={list} empty={NO_ENTRIES} showType pageable />
    </section>
  );
}

/** /users/{username}: another user's public profile and their vault entries. */
export function PublicProfileScreen({ username }: { username: string }) {
  const [state, setState] = useState<ProfileState>({ status: 'loading' });

  useEffect(() => {
    let active = true;
    fetchProfile(username).then(
      (user) => active && setState({ status: 'ready', user }),
      (error: unknown) =>
        active &&
        setState({
          status: 'error',
          message:
            error instanceof ApiError && error.status === 404
              ? PROFILE_NOT_FOUND
              : messageOf(error, PROFILE_NOT_FOUND),
        }),
    );
    return () => {
      active = false;
    };
  }, [username]);

  return (
    <Screen
      title={username}
      before={
        <Link href="/following" className="back-link">
          <ArrowLeftIcon />
          Back to following
        </Link>
      }
    >
      {state.status === 'loading' && (
        <p className="list-status" role="status">
          Loading…
        </p>
      )}
      {state.status === 'error' && (
        <p role="alert" className="form-error">
          {state.message}
        </p>
      )}
      {state.status === 'ready' && (
        <>
          <div className="profile-card">
            <Avatar user={state.user} size="large" />
            <div>
              <p className="profile-card__name">{state.user.fullName || state.user.username}</p>
              <p className="profile-card__handle">@{state.user.username}</p>
            </div>
          </div>
          <ProfileEntries user={state.user} />
        </>
      )}
    </Screen>
  );
}
