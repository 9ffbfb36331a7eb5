import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { messageOf } from '../notes/notes.tsx';
import { Avatar } from '../ui/Avatar.tsx';
import { LOOKUP_FAILED, lookupAccount, NOT_A_VAULT, type LookedUpActor } from './remote-api.ts';
import { useFollowAccount } from './remote-follows.ts';

export const FOLLOW_ACCOUNT_FAILED = 'Failed to follow account';

/**
 * The dialog's fediverse part: a handle (@name@server, name@server) or a profile address is
 * looked up on the server, the account is shown (name, handle, summary, all as text, with
 * initials for an avatar; when its server is not a vault, that its posts will not show in the
 * activity feed), and 'Follow' sends the follow. Pending until the account's server accepts.
 */
export function RemoteLookup({
  onFollowed,
  initial = '',
  label = 'Or follow a fediverse account',
}: {
  onFollowed: (actor: LookedUpActor) => void;
  label?: string;
  /** A handle looked up at once (the page of a fediverse account, /users/@name@host). */
  initial?: string;
}) {
  const inputId = useId();
  const notVaultId = useId();
  const [query, setQuery] = useState(initial);
  const [looking, setLooking] = useState(false);
  const [found, setFound] = useState<LookedUpActor | null>(null);
  const [error, setError] = useState<string | null>(null);
  const follow = useFollowAccount();

  const lookUp = async (text: string) => {
    if (!text) return;
    setLooking(true);
    setError(null);
    setFound(null);
    try {
      setFound(await lookupAccount(text));
    } catch (caught) {
      setError(messageOf(caught, LOOKUP_FAILED));
    } finally {
      setLooking(false);
    }
  };

  const look = (event: FormEvent) => {
    event.preventDefault();
    if (!looking) void lookUp(query.trim());
  };

  useEffect(() => {
    void lookUp(initial.trim());
    // Once, for the handle the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const confirm = (actor: LookedUpActor) => {
    setError(null);
    follow.mutate(actor, {
      onSuccess: () => onFollowed(actor),
      onError: (caught) => setError(messageOf(caught, FOLLOW_ACCOUNT_FAILED)),
    });
  };

  return (
    <div className="remote-lookup">
      <form className="remote-lookup__form" onSubmit={look}>
        <label htmlFor={inputId} className="remote-lookup__label">
          {label}
        </label>
        <div className="remote-lookup__row">
          <input
            id={inputId}
            className="input"
            type="text"
            inputMode="email"
            autoComplete="off"
            spellCheck={false}
            placeholder="@name@example.social"
            value={query}
            maxLength={500}
            onChange={(event) => setQuery(event.target.value)}
          />
          <button
            type="submit"
            className="button button--secondary"
            disabled={looking || query.trim() === ''}
          >
            {looking ? 'Looking up…' : 'Look up'}
          </button>
        </div>
      </form>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {found && (
        <div className="remote-account" aria-label={`Account ${found.handle}`} role="group">
          {/* Initials, not the remote avatar: the page loads no image from other servers
              (its Content-Security-Policy, and the user's address stays private). */}
          <Avatar
            user={{
              fullName: found.displayName || found.handle,
              username: found.handle,
              avatarPath: null,
            }}
          />
          <div className="remote-account__who">
            <span className="remote-account__name">{found.displayName || found.handle}</span>
            <span className="remote-account__handle">{found.handle}</span>
            {found.summary && <p className="remote-account__summary">{found.summary}</p>}
          </div>
          {found.vault === false && (
            <p id={notVaultId} className="remote-account__not-vault">
              {NOT_A_VAULT}
            </p>
          )}
          {found.followState === 'NONE' ? (
            <button
              type="button"
              className="button button--primary"
              onClick={() => confirm(found)}
              disabled={follow.isPending}
              aria-describedby={found.vault === false ? notVaultId : undefined}
            >
              Follow
            </button>
          ) : (
            <span className="tag tag--muted">
              {found.followState === 'PENDING' ? 'Pending' : 'Following'}
            </span>
          )}
        </div>
      )}
    </div>
  );
}
