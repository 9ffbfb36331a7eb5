import type { UserSummary } from '../api/types.ts';
import { messageOf } from '../notes/notes.tsx';
import { useCurrentUser } from '../session/session.tsx';
import './following.css';
import { FOLLOW_FAILED, useFollow, useFollowing, useUnfollow } from './follows.ts';

/**
 * Follow / Unfollow beside a public profile (nothing on one's own). Whether the viewer follows
 * the user comes from their following list, which both buttons keep up to date.
 */
export function ProfileFollowButton({ user }: { user: UserSummary }) {
  const me = useCurrentUser();
  const following = useFollowing();
  const follow = useFollow();
  const unfollow = useUnfollow();
  if (me.id === user.id || following.isPending) return null;
  const followed = (following.data ?? []).some((item) => item.user.id === user.id);
  const busy = follow.isPending || unfollow.isPending;
  const name = user.fullName || user.username;
  return (
    <div className="profile-follow">
      {followed ? (
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
