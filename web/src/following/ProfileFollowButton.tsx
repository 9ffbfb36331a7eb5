import { useRef } from 'react';
import type { UserSummary } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { useCurrentUser } from '../session/session.tsx';
import { useKeepFocus } from '../ui/useKeepFocus.ts';
import './following.css';
import { FOLLOW_FAILED, useFollow, useFollowing, useUnfollow } from './follows.ts';

/**
 * Follow / Unfollow beside a public profile (nothing on one's own); 'Requested' with Cancel
 * while a user who approves followers has not accepted. Whether the viewer follows the user
 * comes from their following list, which both buttons keep up to date.
 */
export function ProfileFollowButton({ user }: { user: UserSummary }) {
  const me = useCurrentUser();
  const following = useFollowing();
  const follow = useFollow();
  const unfollow = useUnfollow();
  const boxRef = useRef<HTMLDivElement>(null);
  const shown = me.id !== user.id && !following.isPending;
  // Follow, Unfollow and Cancel take each other's place: focus goes from one to the next.
  useKeepFocus(boxRef, shown);
  if (!shown) return null;
  const state = (following.data ?? []).find((item) => item.user.id === user.id)?.state;
  const followed = state !== undefined;
  const busy = follow.isPending || unfollow.isPending;
  const name = user.fullName || user.username;
  return (
    <div ref={boxRef} className="profile-follow">
      {state === 'PENDING' ? (
        <>
          <span className="tag tag--muted" title="Waiting for them to accept">
            Requested
          </span>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => unfollow.mutate(user)}
            disabled={busy}
            aria-label={`Cancel the follow request to ${name}`}
          >
            Cancel
          </button>
        </>
      ) : followed ? (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => unfollow.mutate(user)}
          disabled={busy}
          aria-label={`Unfollow ${name}`}
        >
          Unfollow
        </button>
      ) : (
        <button
          type="button"
          className="button button--primary"
          onClick={() => follow.mutate(user)}
          disabled={busy}
          aria-label={`Follow ${name}`}
        >
          Follow
        </button>
      )}
      {follow.isError && !followed && (
        <p className="form-error" role="alert">
          {messageOf(follow.error, FOLLOW_FAILED)}
        </p>
      )}
    </div>
  );
}
