import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { setApproveFollowers } from '../api/privacy.ts';
import { queryKeys } from '../api/query-keys.ts';
import { messageOf, useNotes } from '../notes/notes.tsx';
import { useCurrentUser, useSession } from '../session/session.tsx';
import { PanelError } from './Panel.tsx';

export const APPROVE_FOLLOWERS_SAVED = 'Follower approval saved';

/**
 * 'Approve followers' in the Privacy panel, saved at once. On: a follow (from this vault or
 * the fediverse) waits in Alerts until accepted. Turning it off accepts every request that
 * waits, so the followers list and the alerts are read again.
 */
export function ApproveFollowers() {
  const user = useCurrentUser();
  const { setUser } = useSession();
  const { notifySuccess } = useNotes();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const hintId = useId();

  const toggle = async (enabled: boolean) => {
    setBusy(true);
    setError(null);
    try {
      setUser(await setApproveFollowers(enabled));
      notifySuccess(APPROVE_FOLLOWERS_SAVED);
      void queryClient.invalidateQueries({ queryKey: queryKeys.followers });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
    } catch (caught) {
      setError(messageOf(caught, 'The setting could not be saved'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="field">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          className="switch__input"
          checked={user.approveFollowers}
          onChange={(event) => void toggle(event.target.checked)}
          disabled={busy}
          aria-describedby={hintId}
        />
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        <span className="switch__label">Approve followers</span>
      </label>
      <p id={hintId} className="field__hint">
        {user.approveFollowers
          ? 'Someone who follows you waits in Alerts until you accept, and sees your followers-only entries only then.'
          : 'Anyone can follow you at once. Turning this off accepts the requests that wait.'}
      </p>
      <PanelError message={error} />
    </div>
  );
}
