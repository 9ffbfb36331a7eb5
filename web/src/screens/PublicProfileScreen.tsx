import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'wouter';
import '../people/public-profile.css';
import { formatDate } from '../people/dates.ts';
import { handleOfSegment } from '../people/handle-path.ts';
import { ProfileFollowButton } from '../following/ProfileFollowButton.tsx';
import { ProfileBlock } from '../blocks/ProfileBlock.tsx';
import { ApiError } from '../api/client.ts';
import { fetchProfile } from '../api/social.ts';
import { queryKeys } from '../api/query-keys.ts';
import type { PublicProfile } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { ROLE_LABELS } from '../session/roles.ts';
import { useCurrentUser } from '../session/session.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { ArrowLeftIcon, CalendarIcon, GlobeIcon } from '../ui/icons.tsx';
import { EntryList, NO_ENTRIES } from '../vault/EntryList.tsx';
import { ARCHIVE_PAGE_SIZE, useBeverageList } from '../vault/useBeverageList.ts';
import { FediverseAccountScreen } from './FediverseAccountScreen.tsx';
import { Screen } from './Screen.tsx';
import './archive.css';

export const PROFILE_NOT_FOUND = 'Profile not found.';
export const USERNAME_REQUIRED = 'Username is required';

/**
 * The user's entries. On someone else's profile they are read-only for every viewer, admins
 * included: an admin edits another user's entry where it reaches the admin's own lists.
 */
function ProfileEntries({ user }: { user: PublicProfile }) {
  const titleId = useId();
  const me = useCurrentUser();
  const list = useBeverageList({ userId: user.id }, { pageSize: ARCHIVE_PAGE_SIZE });
  return (
    <section className="archive-group" aria-labelledby={titleId}>
      <h2 id={titleId} className="archive-group__title">
        Vault entries
      </h2>
      <EntryList list={list} empty={NO_ENTRIES} showType pageable readOnly={me.id !== user.id} />
    </section>
  );
}

/** Who the user is: avatar, name, handle, member-since date, fediverse handle and bio. */
function ProfileHero({ user }: { user: PublicProfile }) {
  const me = useCurrentUser();
  const bio = user.bio.trim();
  const since = formatDate(user.createdAt);
  return (
    <section className="public-profile__hero" aria-label={`About ${user.username}`}>
      <div className="public-profile__identity">
        <Avatar user={user} size="large" />
        <div className="public-profile__who">
          <p className="public-profile__name">{user.fullName || user.username}</p>
          <p className="public-profile__handle">
            <span>@{user.username}</span>
            {user.role === 'ADMIN' && (
              <span className="public-profile__role">{ROLE_LABELS.ADMIN}</span>
            )}
          </p>
          <ul className="public-profile__facts">
            {since && (
              <li>
                <CalendarIcon />
                <span>
                  Member since <time dateTime={user.createdAt}>{since}</time>
                </span>
              </li>
            )}
            {user.activityPubEnabled && user.activityPubHandle && (
              <li>
                <GlobeIcon />
                <span>
                  <span className="visually-hidden">On the fediverse as </span>
                  <span className="public-profile__fediverse">{user.activityPubHandle}</span>
                </span>
              </li>
            )}
          </ul>
          <ProfileFollowButton user={user} />
          {me.id !== user.id && (
            <ProfileBlock username={user.username} name={user.fullName || user.username} />
          )}
        </div>
      </div>
      {bio ? (
        <p className="public-profile__bio">{bio}</p>
      ) : (
        <p className="public-profile__bio public-profile__bio--empty">No bio yet.</p>
      )}
    </section>
  );
}

/** What shows instead of a profile: 'Username is required', 'Profile not found.' and others. */
function ProfileProblem({ message, detail }: { message: string; detail?: string }) {
  return (
    <div className="public-profile__problem" role="alert">
      <p className="public-profile__problem-title">{message}</p>
      {detail && <p className="public-profile__problem-text">{detail}</p>}
    </div>
  );
}

/**
 * /users/{username}: another user's public profile and their vault entries; /users/@name@host,
 * a fediverse account (a comment's mention links there).
 */
export function PublicProfileScreen({ username }: { username: string }) {
  const handle = handleOfSegment(username);
  return handle ? <FediverseAccountScreen handle={handle} /> : <UserProfile username={username} />;
}

function UserProfile({ username: rawUsername }: { username: string }) {
  const username = rawUsername.trim();
  const query = useQuery({
    queryKey: queryKeys.profile(username),
    queryFn: () => fetchProfile(username),
    enabled: username !== '',
  });
  const notFound = query.error instanceof ApiError && query.error.status === 404;

  return (
    <Screen
      title={username || 'Public profile'}
      before={
        <Link href="/following" className="back-link">
          <ArrowLeftIcon />
          Back to following
        </Link>
      }
    >
      {!username ? (
        <ProfileProblem
          message={USERNAME_REQUIRED}
          detail="Open a profile from the people you follow, or add a username to the address."
        />
      ) : query.data ? (
        <div className="public-profile">
          <ProfileHero user={query.data} />
          <ProfileEntries user={query.data} />
        </div>
      ) : query.isError ? (
        <ProfileProblem
          message={notFound ? PROFILE_NOT_FOUND : messageOf(query.error, PROFILE_NOT_FOUND)}
          detail={notFound ? `No one in this vault goes by @${username}.` : undefined}
        />
      ) : (
        <p className="list-status" role="status">
          Loading…
        </p>
      )}
    </Screen>
  );
}
