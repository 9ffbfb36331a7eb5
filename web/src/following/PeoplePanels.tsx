import { useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { Follower, FollowingItem, UserSummary } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { useFollow, useFollowers, useFollowing, useFollowStates, useUnfollow } from './follows.ts';
import { FederatedPerson, LocalPerson } from './Person.tsx';
import { NOT_A_VAULT_ROW } from './remote-api.ts';
import { BlockButton } from '../blocks/BlockButton.tsx';
import { ConfirmAction } from '../ui/ConfirmAction.tsx';
import { useKeepFocus } from '../ui/useKeepFocus.ts';
import {
  useRemoteFollowing,
  useRemoveFollower,
  useUnfollowAccount,
  type RemoteFollowingItem,
} from './remote-follows.ts';

export const NOT_FOLLOWING_ANYONE = "You aren't following anyone yet.";
export const NO_FOLLOWERS = 'No followers yet.';

/** Unfollow, or Cancel of a request not accepted yet. */
function UnfollowButton({ user, requested }: { user: UserSummary; requested: boolean }) {
  const unfollow = useUnfollow();
  const name = user.fullName || user.username;
  return (
    <button
      type="button"
      className="button button--secondary person__action"
      onClick={() => unfollow.mutate(user)}
      disabled={unfollow.isPending}
      aria-label={requested ? `Cancel the follow request to ${name}` : `Unfollow ${name}`}
    >
      {requested ? 'Cancel' : 'Unfollow'}
    </button>
  );
}

/** 'Requested': a follow waiting for the followed user to accept it. */
const REQUESTED_TAG = (
  <span className="tag tag--muted person__action" title="Waiting for them to accept">
    Requested
  </span>
);

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

/** Remove, after a question: the follower stops seeing what only followers see. */
function RemoveFollowerButton({ actorId, name }: { actorId: number; name: string }) {
  const remove = useRemoveFollower();
  const [confirming, setConfirming] = useState(false);
  if (confirming) {
    return (
      <ConfirmAction
        question={`Remove ${name} from your followers? They stop seeing what only followers see.`}
        confirmLabel="Yes, remove"
        busy={remove.isPending || remove.isSuccess}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ actorId, name }, { onError: () => setConfirming(false) })}
      />
    );
  }
  return (
    <button
      type="button"
      className="button button--secondary person__action"
      onClick={() => setConfirming(true)}
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
      note={item.vault === false && <p className="person__not-vault">{NOT_A_VAULT_ROW}</p>}
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
  const sectionRef = useRef<HTMLElement>(null);
  useKeepFocus(sectionRef);
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
    <section ref={sectionRef} className="panel people-panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="panel__title">
        {title}
      </h2>
      {body}
    </section>
  );
}

/**
 * 'People you follow': local users (Requested until accepted) and fediverse accounts (Pending
 * until accepted), each with Unfollow (Cancel while waiting).
 */
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
          action={
            <>
              {item.state === 'PENDING' && REQUESTED_TAG}
              <UnfollowButton user={item.user} requested={item.state === 'PENDING'} />
            </>
          }
        />
      ))}
    </PeoplePanel>
  );
}

/**
 * 'Followers' (accepted ones; requests wait in Alerts): local users (with Follow for those not
 * followed back, or Requested) and fediverse accounts, each with Remove.
 */
export function FollowersPanel() {
  const followers = useFollowers();
  const states = useFollowStates();
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
                {states.get(follower.user.id) === 'ACCEPTED' ? (
                  <span className="tag tag--muted person__action">Following</span>
                ) : states.get(follower.user.id) === 'PENDING' ? (
                  REQUESTED_TAG
                ) : (
                  <FollowButton user={follower.user} />
                )}
                <RemoveFollowerButton
                  actorId={follower.actorId}
                  name={follower.user.fullName || follower.user.username}
                />
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
