import { useId } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { Follower, FollowingItem, UserSummary } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { formatDate } from '../people/dates.ts';
import { Avatar } from '../ui/Avatar.tsx';
import { GlobeIcon } from '../ui/icons.tsx';
import { BlockButton } from '../blocks/BlockButton.tsx';
import { useFollow, useFollowedIds, useFollowers, useFollowing, useUnfollow } from './follows.ts';
import {
  useRemoteFollowing,
  useRemoveFollower,
  useUnfollowAccount,
  type RemoteFollowingItem,
} from './remote-follows.ts';

export const NOT_FOLLOWING_ANYONE = "You aren't following anyone yet.";
export const NO_FOLLOWERS = 'No followers yet.';

/** Since when: 'Since Mar 3, 2025'. */
function Since({ iso }: { iso: string }) {
  const date = formatDate(iso);
  if (!date) return null;
  return (
    <span className="person__since">
      Since <time dateTime={iso}>{date}</time>
    </span>
  );
}

/** A local user: avatar, full name linking to their profile, @username and since when. */
function LocalPerson({
  user,
  since,
  action,
}: {
  user: UserSummary;
  since: string;
  action?: ReactNode;
}) {
  return (
    <li className="person">
      <Avatar user={user} />
      <div className="person__who">
        <Link href={`/users/${encodeURIComponent(user.username)}`} className="person__name">
          {user.fullName || user.username}
        </Link>
        <span className="person__meta">
          <span className="person__username">@{user.username}</span>
          <Since iso={since} />
        </span>
      </div>
      {action}
    </li>
  );
}

function UnfollowButton({ user }: { user: UserSummary }) {
  const unfollow = useUnfollow();
  return (
    <button
      type="button"
      className="button button--secondary person__action"
      onClick={() => unfollow.mutate(user)}
      disabled={unfollow.isPending}
      aria-label={`Unfollow ${user.fullName || user.username}`}
    >
      Unfollow
    </button>
  );
}

/** A follower not followed in return can be followed from the list. */
function FollowButton({ user }: { user: UserSummary }) {
  const follow = useFollow();
  return (
    <>
      <button
        type="button"
        className="button button--primary person__action"
        onClick={() => follow.mutate(user)}
        disabled={follow.isPending}
        aria-label={`Follow ${user.fullName || user.username}`}
      >
        Follow
      </button>
      {follow.isError && (
        <p className="form-error person__error" role="alert">
          {messageOf(follow.error, 'Failed to follow user')}
        </p>
      )}
    </>
  );
}

/**
 * A fediverse account: display name, handle or actor URI, and summary, all rendered as text
 * (never as HTML); no profile page here. `tag` and `action` as for local people.
 */
function FederatedPerson({
  name,
  actorUri,
  label,
  summary,
  since,
  tag,
  action,
}: {
  name: string;
  actorUri: string;
  /** What the link to the account says: its handle, else its actor URI. */
  label?: string | null;
  summary: string;
  since: string;
  tag?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <li className="person person--federated">
      <Avatar user={{ fullName: name, username: name, avatarPath: null }} />
      <div className="person__who">
        <span className="person__name">{name}</span>
        <span className="person__meta">
          <GlobeIcon />
          <a className="person__actor" href={actorUri} rel="noopener noreferrer">
            {label ?? actorUri}
          </a>
          <Since iso={since} />
        </span>
        {summary && <p className="person__summary">{summary}</p>}
      </div>
      {tag}
      {action}
    </li>
  );
}

function RemoveFollowerButton({ actorId, name }: { actorId: number; name: string }) {
  const remove = useRemoveFollower();
  return (
    <button
      type="button"
      className="button button--secondary person__action"
      onClick={() => remove.mutate({ actorId })}
      disabled={remove.isPending}
      aria-label={`Remove follower ${name}`}
    >
      Remove
    </button>
  );
}

function RemoteFollowingPerson({ item }: { item: RemoteFollowingItem }) {
  const unfollow = useUnfollowAccount();
  const name = item.displayName || item.handle || item.actorUri;
  return (
    <FederatedPerson
      name={name}
      actorUri={item.actorUri}
      label={item.handle}
      summary={item.summary}
      since={item.followedAt}
      tag={
        item.state === 'PENDING' ? (
          <span className="tag tag--muted person__action" title="Waiting for the account to accept">
            Pending
          </span>
        ) : null
      }
      action={
        <button
          type="button"
          className="button button--secondary person__action"
          onClick={() => unfollow.mutate(item)}
          disabled={unfollow.isPending}
          aria-label={`Unfollow ${name}`}
        >
          {item.state === 'PENDING' ? 'Cancel' : 'Unfollow'}
        </button>
      }
    />
  );
}

/** One of the two lists: its heading, then loading, an error with Try again, empty or people. */
function PeoplePanel({
  title,
  query,
  count,
  empty,
  children,
}: {
  title: string;
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  count: number;
  empty: string;
  children: ReactNode;
}) {
  const titleId = useId();
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <p className="list-status" role="status">
        Loading…
      </p>
    );
  } else if (query.isError) {
    body = (
      <div className="list-error">
        <p role="alert" className="form-error">
          {messageOf(query.error, `Unable to load ${title.toLowerCase()}.`)}
        </p>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void query.refetch()}
        >
          Try again
        </button>
      </div>
    );
  } else if (count === 0) {
    body = <p className="empty-state">{empty}</p>;
  } else {
    body = <ul className="people">{children}</ul>;
  }
  return (
    <section className="panel people-panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__title">
        {title}
      </h2>
      {body}
    </section>
  );
}

/** 'People you follow': local users and fediverse accounts (Pending until accepted), each with Unfollow. */
export function FollowingPanel() {
  const following = useFollowing();
  const remote = useRemoteFollowing();
  const items: FollowingItem[] = following.data ?? [];
  const remoteItems: RemoteFollowingItem[] = remote.data ?? [];
  return (
    <PeoplePanel
      title="People you follow"
      query={following}
      count={items.length + remoteItems.length}
      empty={NOT_FOLLOWING_ANYONE}
    >
      {remoteItems.map((item) => (
        <RemoteFollowingPerson key={`remote-${item.actorId}`} item={item} />
      ))}
      {items.map((item) => (
        <LocalPerson
          key={item.followId}
          user={item.user}
          since={item.followedAt}
          action={<UnfollowButton user={item.user} />}
        />
      ))}
    </PeoplePanel>
  );
}

/** 'Followers': local users (with Follow for those not followed back) and fediverse accounts. */
export function FollowersPanel() {
  const followers = useFollowers();
  const followed = useFollowedIds();
  const items: Follower[] = followers.data ?? [];
  return (
    <PeoplePanel title="Followers" query={followers} count={items.length} empty={NO_FOLLOWERS}>
      {items.map((follower) =>
        follower.kind === 'local' ? (
          <LocalPerson
            key={`local-${follower.user.id}`}
            user={follower.user}
            since={follower.followedAt}
            action={
              <>
                {followed.has(follower.user.id) ? (
                  <span className="tag tag--muted person__action">Following</span>
                ) : (
                  <FollowButton user={follower.user} />
                )}
                <BlockButton
                  className="person__action"
                  name={follower.user.fullName || follower.user.username}
                  target={{ username: follower.user.username }}
                />
              </>
            }
          />
        ) : (
          <FederatedPerson
            key={`federated-${follower.actorUri}`}
            name={follower.displayName || follower.handle || follower.actorUri}
            actorUri={follower.actorUri}
            summary={follower.summary}
            since={follower.followedAt}
            action={
              <>
                <RemoveFollowerButton
                  actorId={follower.actorId}
                  name={follower.displayName || follower.handle || follower.actorUri}
                />
                <BlockButton
                  className="person__action"
                  name={follower.displayName || follower.handle || follower.actorUri}
                  target={{ actorUri: follower.actorUri }}
                />
              </>
            }
          />
        ),
      )}
    </PeoplePanel>
  );
}
